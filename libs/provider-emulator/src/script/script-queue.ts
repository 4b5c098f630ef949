import type { ProviderName } from '../types';
import type { ScriptedReply } from './scripted-reply';

/** What a queued reply is matched against. */
export interface ReplyTarget {
  provider: ProviderName;
  model: string | undefined;
  stream: boolean;
}

interface QueueEntry {
  reply: ScriptedReply;
  /** Requests this entry still answers; Infinity for `times: 'always'`. */
  remaining: number;
}

/** FIFO of scripted replies; each request takes the first entry that matches it. */
export class ScriptQueue {
  #entries: QueueEntry[] = [];

  enqueue(replies: readonly ScriptedReply[]): void {
    for (const reply of replies) {
      const times = reply.times ?? 1;
      this.#entries.push({ reply, remaining: times === 'always' ? Number.POSITIVE_INFINITY : times });
    }
  }

  /** Removes (or counts down) and returns the first reply matching `target`. */
  take(target: ReplyTarget): ScriptedReply | undefined {
    const index = this.#entries.findIndex((entry) => matches(entry.reply, target));
    const entry = this.#entries[index];
    if (entry === undefined) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.#entries.splice(index, 1);
    return entry.reply;
  }

  /** Replies still queued (a reply with `times: 3` counts once). */
  pending(): ScriptedReply[] {
    return this.#entries.map((entry) => entry.reply);
  }

  clear(): void {
    this.#entries = [];
  }
}

function matches(reply: ScriptedReply, target: ReplyTarget): boolean {
  const match = reply.match;
  if (match === undefined) return true;
  return (
    (match.provider === undefined || match.provider === target.provider) &&
    (match.model === undefined || match.model === target.model) &&
    (match.stream === undefined || match.stream === target.stream)
  );
}
