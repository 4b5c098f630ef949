import type { IncomingMessage } from 'node:http';

/** Bodies above this are refused with 413; keeps a runaway client from exhausting memory. */
export const maxBodyBytes = 32 * 1024 * 1024;

/** Error raised when a body exceeds {@link maxBodyBytes}. */
export class BodyTooLargeError extends Error {}

/** Collects the request body as UTF-8 text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new BodyTooLargeError(`request body exceeds ${maxBodyBytes} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    request.on('error', reject);
  });
}
