import type { ProviderName } from '@agentdesk/providers';
import type { RequestedJson } from './json-answer';

/**
 * How long, and for how many characters, answer text is held back while the answer may still turn
 * out to be a refusal. OpenAI streams refusals as their own deltas but the providers layer passes
 * them on as text, and Anthropic says `stop_reason: refusal` only at the end, so a refusal is known
 * for sure only when the stream finishes. Refusals are short and come fast: text past either limit
 * goes out as content (should the answer still end as a refusal, the whole text follows as
 * `refusal` too, so `message.refusal` is always complete). The cost is a first content delta later
 * by at most this long, on OpenAI and Anthropic models only.
 */
export const refusalHoldCharacters = 200;
export const refusalHoldMilliseconds = 250;

/** Gemini refuses with a SAFETY stop and no text at all, so its text never needs holding for that. */
const providersWithTextRefusals: ReadonlySet<ProviderName> = new Set(['openai', 'anthropic']);

/** How an answer's text should be streamed. */
export interface AnswerTextPolicy {
  provider: ProviderName;
  requestedJson: RequestedJson;
}

/** What is left to send when the answer is complete. */
export interface HeldAnswer {
  /** Text deltas not yet sent, in order. */
  pieces: string[];
  /** True when the text was held for JSON reasons: send the final (restored, unfenced) JSON, not the pieces. */
  sendFinalJson: boolean;
  /** True when some text already went out as content (the answer outgrew the refusal hold). */
  released: boolean;
}

/**
 * Decides, delta by delta, when streamed answer text may go out as `content`:
 * - while it may still be a refusal (see {@link refusalHoldCharacters}) it is held, so a refusal
 *   can be sent as `refusal` deltas, as OpenAI does;
 * - with a JSON response format, text that does not start like JSON (prose, a markdown fence) is
 *   held to the end, so prose never goes out labelled as JSON and a fenced answer goes out parsed;
 * - when the schema lowering rewrites answers, everything is held and the restored JSON sent at the end.
 */
export class AnswerTextGate {
  readonly #holdForRefusal: boolean;
  readonly #requestedJson: RequestedJson;
  #held: string[] = [];
  #heldCharacters = 0;
  #streaming = false;
  #holdToEnd = false;
  #jsonStartChecked = false;

  constructor(policy: AnswerTextPolicy) {
    this.#holdForRefusal = providersWithTextRefusals.has(policy.provider);
    this.#requestedJson = policy.requestedJson;
  }

  /** Holds every piece to the end (the final answer is not the streamed text). */
  holdToEnd(): void {
    this.#holdToEnd = true;
  }

  /** The text to send as content now for one delta (possibly none, possibly earlier held pieces too). */
  accept(text: string): string[] {
    if (this.#streaming) return [text];
    this.#held.push(text);
    this.#heldCharacters += text.length;
    if (this.#holdToEnd) return [];
    if (this.#requestedJson !== undefined && !this.#jsonStartChecked) {
      const start = this.#held.join('').trimStart();
      if (start === '') return [];
      this.#jsonStartChecked = true;
      if (!startsLikeJson(start, this.#requestedJson)) {
        this.#holdToEnd = true;
        return [];
      }
    }
    if (this.#holdForRefusal && this.#heldCharacters <= refusalHoldCharacters) return [];
    return this.#release();
  }

  /** True while text is held only in case of a refusal (see {@link refusalHoldMilliseconds}). */
  get holdingForRefusal(): boolean {
    const jsonStartPending = this.#requestedJson !== undefined && !this.#jsonStartChecked;
    return this.#held.length > 0 && !this.#streaming && !this.#holdToEnd && !jsonStartPending;
  }

  /**
   * Lets text held in case of a refusal go out as content: a tool call shows the answer is none,
   * and after {@link refusalHoldMilliseconds} the wait is over. Text held for JSON stays held.
   */
  releaseHeldForRefusal(): string[] {
    return this.holdingForRefusal ? this.#release() : [];
  }

  /** What remains at the end of the answer; nothing is held afterwards. */
  end(): HeldAnswer {
    const held: HeldAnswer = {
      pieces: this.#held,
      sendFinalJson: this.#holdToEnd,
      released: this.#streaming,
    };
    this.#held = [];
    return held;
  }

  #release(): string[] {
    this.#streaming = true;
    const pieces = this.#held;
    this.#held = [];
    return pieces;
  }
}

/** `json_object` answers open with `{`; a schema's root may be any JSON value. */
function startsLikeJson(text: string, requested: NonNullable<RequestedJson>): boolean {
  return requested === 'json_object' ? text.startsWith('{') : /^[{["\d-]|^(true|false|null)\b/.test(text);
}
