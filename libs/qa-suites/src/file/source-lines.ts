import { isCollection, LineCounter, parseDocument, type Document } from 'yaml';

/**
 * Where the values of a parsed file sit in its text: the YAML document keeps each node's offset,
 * so an issue found later (by the schema) can name its line. JSON files are read the same way
 * (JSON is YAML), only for the lines.
 */
export class SourceLines {
  private constructor(
    private readonly document: Document.Parsed | undefined,
    private readonly lineCounter: LineCounter,
  ) {}

  static of(text: string): SourceLines {
    const lineCounter = new LineCounter();
    try {
      const document = parseDocument(text, { lineCounter, uniqueKeys: false });
      return new SourceLines(document.errors.length === 0 ? document : undefined, lineCounter);
    } catch {
      return new SourceLines(undefined, lineCounter);
    }
  }

  static fromDocument(document: Document.Parsed, lineCounter: LineCounter): SourceLines {
    return new SourceLines(document, lineCounter);
  }

  /** The line of the deepest node on `path` that exists (a missing key is placed at its parent). */
  lineOf(path: readonly PropertyKey[]): number | undefined {
    if (!this.document) return undefined;
    let node: unknown = this.document.contents;
    let offset = rangeStart(node);
    for (const segment of path) {
      if (!isCollection(node)) break;
      const key = typeof segment === 'number' ? segment : String(segment);
      const child: unknown = node.get(key, true);
      if (child === undefined) break;
      node = child;
      offset = rangeStart(child) ?? offset;
    }
    return offset === undefined ? undefined : this.lineCounter.linePos(offset).line;
  }
}

function rangeStart(node: unknown): number | undefined {
  if (node && typeof node === 'object' && 'range' in node) {
    const range = (node as { range?: [number, number, number] | null }).range;
    return range ? range[0] : undefined;
  }
  return undefined;
}
