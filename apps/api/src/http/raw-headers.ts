/**
 * Every value a header was sent with, in order, from Node's raw header list (name, value, …).
 * Node's parsed `headers` hide repeats: it keeps only the first of some (`Authorization`, `Host`)
 * and comma-joins others, so a header that must appear once is checked here.
 */
export function rawHeaderValues(rawHeaders: readonly string[], name: string): string[] {
  const lowerName = name.toLowerCase();
  const values: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2)
    if (rawHeaders[index]!.toLowerCase() === lowerName) values.push(rawHeaders[index + 1]!);
  return values;
}
