/**
 * Newline-delimited JSON from an engine progress stream (build, import). A line that is not JSON is
 * passed on as `{ stream: line }` rather than failing the whole build.
 */
export async function* readJsonLines<T>(stream: NodeJS.ReadableStream): AsyncGenerator<T> {
  let buffered = '';
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    buffered += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield parseLine<T>(line);
    }
  }
  const rest = buffered.trim();
  if (rest) yield parseLine<T>(rest);
}

function parseLine<T>(line: string): T {
  try {
    return JSON.parse(line) as T;
  } catch {
    return { stream: line } as T;
  }
}
