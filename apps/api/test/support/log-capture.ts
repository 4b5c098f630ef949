import { Writable } from 'node:stream';

/** Collects every log line an app writes, to assert on (and to keep test output quiet). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    this.lines.push(
      ...chunk
        .toString()
        .split('\n')
        .filter((line) => line.length > 0),
    );
    callback();
  }

  /** Everything written so far, as one string. */
  text(): string {
    return this.lines.join('\n');
  }
}
