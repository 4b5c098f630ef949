/**
 * A strict, small XML 1.0 reader for tests (no XML parser is installed): elements, attributes,
 * text, the five predefined entities and character references, a prolog; it throws on anything
 * not well-formed (unescaped `<` or `&`, `]]>` in text, mismatched or unclosed tags, duplicate
 * attributes, characters XML cannot carry, content after the root). It applies XML's end-of-line
 * handling and attribute-value normalization, as a real parser would.
 */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly (XmlElement | string)[];
}

const nameStart = /[A-Za-z_:]/;
const namePattern = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const notXmlCharacter = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const predefined: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function parseStrictXml(source: string): XmlElement {
  const bad = notXmlCharacter.exec(source);
  if (bad !== null)
    throw new Error(`character U+${bad[0].codePointAt(0)!.toString(16)} is not allowed in XML`);
  const text = source.replace(/\r\n?/g, '\n');
  let position = 0;

  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${position}`);
  };
  const skipSpace = () => {
    while (position < text.length && /[ \t\n]/.test(text[position]!)) position += 1;
  };
  const readName = (): string => {
    const match = namePattern.exec(text.slice(position));
    if (match === null) return fail('a name was expected');
    position += match[0].length;
    return match[0];
  };
  const decode = (raw: string, inAttribute: boolean): string => {
    let out = '';
    for (let index = 0; index < raw.length; index += 1) {
      const character = raw[index]!;
      if (character === '<') fail('"<" must be escaped');
      if (character === '&') {
        const end = raw.indexOf(';', index);
        if (end < 0) fail('"&" must be escaped');
        const reference = raw.slice(index + 1, end);
        let decoded: string | undefined;
        if (/^#[0-9]+$/.test(reference)) decoded = String.fromCodePoint(Number(reference.slice(1)));
        else if (/^#x[0-9a-fA-F]+$/.test(reference))
          decoded = String.fromCodePoint(parseInt(reference.slice(2), 16));
        else decoded = predefined[reference];
        if (decoded === undefined) fail(`unknown entity &${reference};`);
        if (notXmlCharacter.test(decoded!))
          fail(`reference &${reference}; names a character XML cannot carry`);
        out += decoded;
        index = end;
      } else {
        out += inAttribute && (character === '\t' || character === '\n') ? ' ' : character;
      }
    }
    return out;
  };
  const readElement = (): XmlElement => {
    if (text[position] !== '<' || !nameStart.test(text[position + 1] ?? '')) fail('an element was expected');
    position += 1;
    const name = readName();
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = position;
      skipSpace();
      if (text.startsWith('/>', position)) {
        position += 2;
        return { name, attributes, children: [] };
      }
      if (text[position] === '>') {
        position += 1;
        break;
      }
      if (position === before) fail('whitespace is needed before an attribute');
      const attribute = readName();
      skipSpace();
      if (text[position] !== '=') fail('"=" expected');
      position += 1;
      skipSpace();
      const quote = text[position];
      if (quote !== '"' && quote !== "'") fail('a quoted value expected');
      const end = text.indexOf(quote!, position + 1);
      if (end < 0) fail('unterminated attribute value');
      if (Object.hasOwn(attributes, attribute)) fail(`attribute ${attribute} repeated`);
      attributes[attribute] = decode(text.slice(position + 1, end), true);
      position = end + 1;
    }
    const children: (XmlElement | string)[] = [];
    for (;;) {
      if (position >= text.length) fail(`<${name}> is not closed`);
      if (text.startsWith('</', position)) {
        position += 2;
        const closing = readName();
        if (closing !== name) fail(`</${closing}> closes <${name}>`);
        skipSpace();
        if (text[position] !== '>') fail('">" expected');
        position += 1;
        return { name, attributes, children };
      }
      if (text[position] === '<') {
        children.push(readElement());
        continue;
      }
      const next = text.indexOf('<', position);
      const raw = text.slice(position, next < 0 ? text.length : next);
      if (raw.includes(']]>')) fail('"]]>" is not allowed in text');
      children.push(decode(raw, false));
      position += raw.length;
    }
  };

  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end < 0) fail('unterminated prolog');
    position = end + 2;
  }
  skipSpace();
  const root = readElement();
  skipSpace();
  if (position !== text.length) fail('content after the root element');
  return root;
}

/** The child elements of an element (text between them dropped). */
export function elementsOf(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter(
    (child): child is XmlElement => typeof child !== 'string' && (name === undefined || child.name === name),
  );
}

/** An element's text content. */
export function textOf(element: XmlElement): string {
  return element.children.filter((child): child is string => typeof child === 'string').join('');
}
