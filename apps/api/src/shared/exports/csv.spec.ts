import { describe, expect, it } from 'vitest';
import { csvCell, csvRecord } from './csv';

describe('CSV encoding (RFC 4180, formula-safe)', () => {
  it('leaves plain text and numbers as they are and writes nothing for null', () => {
    expect(csvRecord(['alice', 42, 0, true, null, ''])).toBe('alice,42,0,true,,\r\n');
  });

  it('quotes a cell with a comma, a quote or a line break, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('crlf\r\nend')).toBe('"crlf\r\nend"');
    expect(csvRecord(['"', ','])).toBe('"""",","\r\n');
  });

  it('prefixes text that starts like a formula with a quote mark, and quotes it when needed', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('a=b')).toBe('a=b');
    // A negative number is data, not text a spreadsheet would evaluate.
    expect(csvCell(-3)).toBe('-3');
  });

  it('keeps unicode as it is (the file is UTF-8)', () => {
    expect(csvRecord(['café', '日本語', '👋 hi', 'é,"x"'])).toBe('café,日本語,👋 hi,"é,""x"""\r\n');
  });
});
