import { randomUUID } from 'node:crypto';
import { type SandboxError } from '../engine/sandbox-error';
import { type BuildEvent } from './build-events';
import { type PinReport } from './ensure-image-pin';

/** The image was current (no build), or a build produced a new one. */
export interface EnsureImageResult {
  readonly status: 'current' | 'built';
  readonly buildId: string;
  readonly tag: string;
  readonly imageId: string;
  /** The id the tag named before a build (undefined when the tag did not exist). */
  readonly previousImageId?: string;
  readonly contentHash: string;
  readonly pin: PinReport;
  readonly basePin: PinReport;
}

export type BuildOutcome =
  EnsureImageResult | { readonly status: 'failed'; readonly buildId: string; readonly error: SandboxError };

/** A build's history entry: who asked is the caller's business (the API stores it with the audit). */
export interface BuildRecord {
  readonly id: string;
  readonly tag: string;
  readonly force: boolean;
  readonly startedAt: number;
  readonly finishedAt?: number;
  readonly status: 'running' | 'current' | 'built' | 'failed';
  readonly imageIdBefore?: string;
  readonly imageIdAfter?: string;
  readonly error?: string;
}

export type BuildListener = (event: BuildEvent) => void;

/**
 * One ensure/rebuild run. Its log is kept whole, so a viewer that subscribes late gets every event
 * from the start, then the live ones. `done` never rejects: a failure is an outcome.
 */
export class BuildHandle {
  readonly id = randomUUID();
  readonly startedAt = Date.now();
  readonly done: Promise<BuildOutcome>;
  private readonly log: BuildEvent[] = [];
  private readonly listeners = new Set<BuildListener>();
  private finished: BuildOutcome | undefined;
  private finishedAt: number | undefined;
  private imageIdBefore: string | undefined;

  constructor(
    readonly tag: string,
    readonly force: boolean,
    run: (handle: BuildHandle) => Promise<BuildOutcome>,
  ) {
    this.done = Promise.resolve()
      .then(() => run(this))
      .then((outcome) => {
        this.finished = outcome;
        this.finishedAt = Date.now();
        this.listeners.clear();
        return outcome;
      });
  }

  emit(event: BuildEvent): void {
    this.log.push(event);
    for (const listener of this.listeners) listener(event);
  }

  noteImageBefore(imageId: string | undefined): void {
    this.imageIdBefore = imageId;
  }

  /** Every event so far. */
  events(): readonly BuildEvent[] {
    return [...this.log];
  }

  /** Replays the log to `listener`, then forwards live events until the build ends. */
  subscribe(listener: BuildListener): () => void {
    for (const event of this.log) listener(event);
    if (!this.finished) this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get isFinished(): boolean {
    return this.finished !== undefined;
  }

  record(): BuildRecord {
    const outcome = this.finished;
    return {
      id: this.id,
      tag: this.tag,
      force: this.force,
      startedAt: this.startedAt,
      ...(this.finishedAt !== undefined ? { finishedAt: this.finishedAt } : {}),
      status: outcome?.status ?? 'running',
      ...(this.imageIdBefore ? { imageIdBefore: this.imageIdBefore } : {}),
      ...(outcome && outcome.status !== 'failed' ? { imageIdAfter: outcome.imageId } : {}),
      ...(outcome?.status === 'failed' ? { error: outcome.error.message } : {}),
    };
  }
}
