/** What one stream of a command produced, capped. */
export interface CapturedStream {
  /** The first `maxBytes` bytes, decoded as UTF-8. */
  readonly text: string;
  /** Every byte the command wrote, including the dropped ones. */
  readonly totalBytes: number;
  readonly truncated: boolean;
}

const headerBytes = 8;

/**
 * Splits the engine's multiplexed exec stream (8-byte header: stream type, 3 zero bytes, 32-bit
 * big-endian length; then the payload) into stdout and stderr, keeping at most `maxBytes` of each.
 * Frames may be split across chunks at any byte. Bytes past the cap are counted, not kept, so a
 * command printing gigabytes costs no memory.
 */
export class OutputDemultiplexer {
  private pending: Buffer = Buffer.alloc(0);
  private readonly kept: Record<1 | 2, Buffer[]> = { 1: [], 2: [] };
  private readonly keptBytes: Record<1 | 2, number> = { 1: 0, 2: 0 };
  private readonly totalBytes: Record<1 | 2, number> = { 1: 0, 2: 0 };
  /** Bytes of the current frame's payload still to come, and which stream they belong to. */
  private frameRemaining = 0;
  private frameStream: 1 | 2 = 1;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (this.frameRemaining > 0) {
        const take = Math.min(this.frameRemaining, data.length);
        this.keep(this.frameStream, data.subarray(0, take));
        this.frameRemaining -= take;
        data = data.subarray(take);
        continue;
      }
      if (data.length < headerBytes) {
        this.pending = Buffer.from(data);
        return;
      }
      // 0 (stdin) does not occur on an exec without stdin; treat anything but stderr as stdout.
      this.frameStream = data[0] === 2 ? 2 : 1;
      this.frameRemaining = data.readUInt32BE(4);
      data = data.subarray(headerBytes);
    }
  }

  stdout(): CapturedStream {
    return this.captured(1);
  }

  stderr(): CapturedStream {
    return this.captured(2);
  }

  private keep(stream: 1 | 2, payload: Buffer): void {
    this.totalBytes[stream] += payload.length;
    const room = this.maxBytes - this.keptBytes[stream];
    if (room <= 0) return;
    const slice = payload.length > room ? payload.subarray(0, room) : payload;
    this.kept[stream].push(Buffer.from(slice));
    this.keptBytes[stream] += slice.length;
  }

  private captured(stream: 1 | 2): CapturedStream {
    return {
      text: Buffer.concat(this.kept[stream]).toString('utf8'),
      totalBytes: this.totalBytes[stream],
      truncated: this.totalBytes[stream] > this.keptBytes[stream],
    };
  }
}
