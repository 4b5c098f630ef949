/**
 * The runner's frame format, both directions: a 9-byte header (kind: u8, command id: u32 BE,
 * payload length: u32 BE) and the payload. Binary so command output crosses as raw bytes (no
 * base64, no JSON escaping); control frames carry JSON. `runner-program.ts` speaks the same.
 */
export const frameHeaderBytes = 9;

export const FrameKind = {
  /** API → runner: start a command (JSON `StartRequest`). */
  start: 1,
  /** API → runner: kill a command's tree (cancel). */
  kill: 2,
  /** Runner → API, once at start (JSON `{version, pid}`). */
  ready: 10,
  stdout: 11,
  stderr: 12,
  /** Runner → API: the command ended (JSON `ExitReport`). */
  exit: 13,
} as const;

export type FrameKindValue = (typeof FrameKind)[keyof typeof FrameKind];

export interface Frame {
  readonly kind: number;
  readonly id: number;
  readonly payload: Buffer;
}

/** What the API asks the runner to run. */
export interface StartRequest {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  /** The `AGENTDESK_EXEC_ID` value every process of the command carries (the tree kill finds them by it). */
  readonly marker: string;
}

/** How a command ended, as the runner saw it. */
export interface ExitReport {
  readonly exitCode?: number;
  /** Set when the shell itself died of a signal (`SIGKILL`, …). */
  readonly signal?: string;
  /** SIGKILL while the memory cgroup's OOM-kill count went up. */
  readonly oomKilled?: boolean;
  readonly timedOut?: boolean;
  readonly cancelled?: boolean;
  readonly stdoutBytes?: number;
  readonly stderrBytes?: number;
  readonly durationMs?: number;
  /** The command could not be started (no pids left, …). */
  readonly spawnError?: string;
}

export function encodeFrame(kind: number, id: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const frame = Buffer.allocUnsafe(frameHeaderBytes + payload.length);
  frame.writeUInt8(kind, 0);
  frame.writeUInt32BE(id, 1);
  frame.writeUInt32BE(payload.length, 5);
  payload.copy(frame, frameHeaderBytes);
  return frame;
}

export function encodeJsonFrame(kind: number, id: number, value: unknown): Buffer {
  return encodeFrame(kind, id, Buffer.from(JSON.stringify(value), 'utf8'));
}

/**
 * Reassembles frames from chunks split at any byte. Chunks are only joined when a frame spans
 * them, so a large payload arriving in many chunks is copied once, not once per chunk.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): Frame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Frame[] = [];
    while (this.buffered >= frameHeaderBytes) {
      const head = this.peek(frameHeaderBytes);
      const length = head.readUInt32BE(5);
      if (this.buffered < frameHeaderBytes + length) break;
      const whole = this.take(frameHeaderBytes + length);
      // A copy when the frame shares its memory with later bytes, so a kept payload pins nothing else.
      const payload = whole.subarray(frameHeaderBytes);
      frames.push({
        kind: whole.readUInt8(0),
        id: whole.readUInt32BE(1),
        payload: this.buffered > 0 ? Buffer.from(payload) : payload,
      });
    }
    return frames;
  }

  /** The first `bytes` bytes without consuming them. */
  private peek(bytes: number): Buffer {
    if (this.chunks[0]!.length < bytes) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }

  private take(bytes: number): Buffer {
    if (this.chunks[0]!.length < bytes) this.chunks = [Buffer.concat(this.chunks)];
    const first = this.chunks[0]!;
    this.buffered -= bytes;
    if (first.length === bytes) {
      this.chunks.shift();
      return first;
    }
    this.chunks[0] = first.subarray(bytes);
    return first.subarray(0, bytes);
  }
}
