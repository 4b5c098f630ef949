/**
 * Produces a string matching a JSON Schema `pattern`, for schema-conforming generated answers.
 * Covers what schemas use in practice (literals, classes, groups, alternation, quantifiers,
 * anchors; lookarounds are skipped) and verifies the result; returns undefined when it cannot.
 */
export function sampleFromPattern(pattern: string): string | undefined {
  const regex = compile(pattern);
  if (regex === undefined) return undefined;
  let built: string | undefined;
  try {
    built = new PatternSampler(pattern).sample();
  } catch {
    built = undefined;
  }
  const candidates = [built, 'example', 'a', 'A', '0', 'abc', 'ABC', '123', 'a1', ''];
  return candidates.find(
    (candidate): candidate is string => candidate !== undefined && regex.test(candidate),
  );
}

function compile(source: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(source, flags);
    } catch {
      // Try the next flag set; JSON Schema patterns are ECMA-262 but some need non-unicode mode.
    }
  }
  return undefined;
}

const classCandidates = ['a', 'A', '0', '_', '-', ' ', '.', '@', 'z', 'Z', '9'];

const escapeSamples: Record<string, string> = {
  d: '0',
  D: 'a',
  w: 'a',
  W: '-',
  s: ' ',
  S: 'a',
  n: '\n',
  t: '\t',
  r: '\r',
  f: '\f',
  v: '\v',
  '0': '\0',
};

class PatternSampler {
  #position = 0;
  readonly #source: string;

  constructor(source: string) {
    this.#source = source;
  }

  sample(): string {
    const result = this.#alternation();
    if (this.#position < this.#source.length) throw new Error('unbalanced pattern');
    return result;
  }

  #peek(): string | undefined {
    return this.#source[this.#position];
  }

  /** The first branch is sampled; the others are parsed only to skip them. */
  #alternation(): string {
    const first = this.#sequence();
    while (this.#peek() === '|') {
      this.#position++;
      this.#sequence();
    }
    return first;
  }

  #sequence(): string {
    let output = '';
    while (this.#position < this.#source.length && this.#peek() !== '|' && this.#peek() !== ')') {
      const atom = this.#atom();
      output += atom.repeat(this.#quantifier());
    }
    return output;
  }

  #atom(): string {
    const char = this.#source[this.#position++];
    switch (char) {
      case '^':
      case '$':
        return '';
      case '.':
        return 'a';
      case '(':
        return this.#group();
      case '[':
        return this.#characterClass();
      case '\\':
        return this.#escape();
      default:
        return char ?? '';
    }
  }

  #group(): string {
    const rest = this.#source.slice(this.#position);
    let lookaround = false;
    if (rest.startsWith('?:')) this.#position += 2;
    else if (rest.startsWith('?=') || rest.startsWith('?!')) {
      this.#position += 2;
      lookaround = true;
    } else if (rest.startsWith('?<=') || rest.startsWith('?<!')) {
      this.#position += 3;
      lookaround = true;
    } else if (rest.startsWith('?<')) {
      this.#position = this.#source.indexOf('>', this.#position) + 1;
    }
    const content = this.#alternation();
    if (this.#peek() !== ')') throw new Error('unclosed group');
    this.#position++;
    return lookaround ? '' : content;
  }

  #characterClass(): string {
    const start = this.#position;
    while (this.#position < this.#source.length && this.#peek() !== ']') {
      if (this.#peek() === '\\') this.#position++;
      this.#position++;
    }
    const body = this.#source.slice(start, this.#position);
    this.#position++;
    const classRegex = compile(`[${body}]`);
    if (classRegex === undefined) throw new Error('bad class');
    const first = body.startsWith('\\') ? (escapeSamples[body[1] ?? ''] ?? body[1]) : body[0];
    const found = [first, ...classCandidates].find(
      (candidate) => candidate !== undefined && classRegex.test(candidate),
    );
    if (found === undefined) throw new Error('no sample for class');
    return found;
  }

  #escape(): string {
    const char = this.#source[this.#position++] ?? '';
    const sample = escapeSamples[char];
    if (sample !== undefined) return sample;
    if (char === 'b' || char === 'B') return '';
    if (/[1-9]/.test(char)) return ''; // Backreference: a skipped empty group repeats nothing.
    if (char === 'k') {
      this.#position = this.#source.indexOf('>', this.#position) + 1;
      return '';
    }
    if (char === 'p' || char === 'P') {
      const end = this.#source.indexOf('}', this.#position) + 1;
      const property = compile(`\\${char}${this.#source.slice(this.#position, end)}`);
      this.#position = end;
      const found = classCandidates.find((candidate) => property?.test(candidate) === true);
      if (found === undefined) throw new Error('no sample for property escape');
      return found;
    }
    if (char === 'x') return this.#codePoint(2);
    if (char === 'u') {
      if (this.#peek() === '{') {
        const end = this.#source.indexOf('}', this.#position);
        const hex = this.#source.slice(this.#position + 1, end);
        this.#position = end + 1;
        return String.fromCodePoint(Number.parseInt(hex, 16));
      }
      return this.#codePoint(4);
    }
    return char;
  }

  #codePoint(digits: number): string {
    const hex = this.#source.slice(this.#position, this.#position + digits);
    this.#position += digits;
    return String.fromCodePoint(Number.parseInt(hex, 16));
  }

  /** The minimum repetition count of the quantifier that follows, 1 when there is none. */
  #quantifier(): number {
    const char = this.#peek();
    let count = 1;
    if (char === '*' || char === '?') {
      this.#position++;
      count = 0;
    } else if (char === '+') {
      this.#position++;
    } else if (char === '{') {
      const match = /^\{(\d+)(,\d*)?\}/.exec(this.#source.slice(this.#position));
      if (match === null) return 1; // A literal brace.
      this.#position += match[0].length;
      count = Number(match[1]);
    } else {
      return 1;
    }
    if (this.#peek() === '?' || this.#peek() === '+') this.#position++;
    return count;
  }
}
