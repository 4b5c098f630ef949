import type { ChatCompletionResult, ProviderName } from '@agentdesk/providers';
import type { ChatCompletionRequest } from './chat-completion-request';
import { answerContent, invalidJsonStart, requestedJsonOf, type RequestedJson } from './json-answer';
import { requestedRootKinds, rootKindOfStart, type JsonRootKind } from './json-root-kinds';

/** How an answer's text may be streamed. */
export interface AnswerTextPolicy {
  /** The JSON response format asked for; undefined streams text as it comes. */
  requestedJson: RequestedJson;
  /** The JSON values the answer may be at its root (`json_object`: objects; a schema: its root's types). */
  rootKinds: ReadonlySet<JsonRootKind>;
  /**
   * True when an answer that does not start like JSON may still end as something that need not be
   * JSON: a refusal the provider writes as text (Anthropic's) or a tool call (tools offered). Such
   * text is held to the end instead of failing at once.
   */
  proseMayEndWell: boolean;
  /** Named in the error, e.g. `openai model gpt-4o`. */
  modelName: string;
}

/**
 * Anthropic writes a refusal as ordinary text and says it was one only with its stop reason; OpenAI
 * sends refusals in their own field and Gemini stops with no text.
 */
const providersRefusingInText: ReadonlySet<ProviderName> = new Set(['anthropic']);

/** The policy for one request's answer on one provider. */
export function answerTextPolicyFor(
  request: Pick<ChatCompletionRequest, 'model' | 'response_format' | 'tools' | 'tool_choice'>,
  provider: ProviderName,
): AnswerTextPolicy {
  const toolsOffered = (request.tools?.length ?? 0) > 0 && request.tool_choice !== 'none';
  return {
    requestedJson: requestedJsonOf(request),
    rootKinds: requestedRootKinds(request.response_format),
    proseMayEndWell: toolsOffered || providersRefusingInText.has(provider),
    modelName: `${provider} model ${request.model}`,
  };
}

type GateState =
  /** Text goes out as it comes. */
  | 'streaming'
  /** JSON was asked for and nothing but whitespace has come yet. */
  | 'undecided'
  /** The answer opened with backticks: waiting for the end of the fence line. */
  | 'fence-opening'
  /** Held to the end; the finished answer's content is sent then. */
  | 'holding';

/** A markdown fence line the JSON parser strips too (`finalizeJson`): ```json or a bare ```. */
const jsonFenceLine = /^\s*```(?:json)?[ \t]*\r?\n/i;
/** What may still become such a fence line. */
const fenceLinePrefix = /^\s*`{1,3}(?:[a-z]{0,4}[ \t]*\r?)?$/i;

/**
 * Decides, delta by delta, what streamed answer text goes out as `content`, without ever delaying
 * an answer that is what was asked for:
 * - plain text streams as it comes;
 * - with a JSON response format, the first non-whitespace character decides: `{` (or `[`, where the
 *   schema's root may be an array) streams from there on; prose fails at once with
 *   `InvalidModelOutputError` (so nothing of it is sent), unless it may still end as a refusal or
 *   a tool call (see {@link AnswerTextPolicy.proseMayEndWell}), when it is held to the end; a scalar
 *   root (`"…"`, a number, `true`) is tiny and held to the end, where its validation decides;
 * - a fenced answer (```json … ```) streams without its fences: the opening line is dropped once it
 *   is complete, and trailing backticks and whitespace are held back only until more text shows
 *   they were not the closing fence (JSON never ends in a backtick; trailing whitespace means nothing);
 * - when the schema lowering rewrites answers ({@link holdToEnd}), everything is held and the
 *   restored JSON is sent at the end: the raw text is not the value the caller's schema describes.
 * Whether the finished answer really is the JSON asked for is checked by the route at the end
 * (`assertJsonAnswer`); what went out already is then followed by OpenAI's in-stream error event.
 */
export class AnswerTextGate {
  readonly #policy: AnswerTextPolicy;
  #state: GateState;
  /** Inside a fence: the closing fence must not go out. */
  #fenced = false;
  /** Text received but not sent: the undecided start, the fence line, or everything when holding. */
  #held = '';
  /** In a fence: trailing whitespace and backticks held back until more text comes. */
  #tail = '';

  constructor(policy: AnswerTextPolicy) {
    this.#policy = policy;
    this.#state = policy.requestedJson === undefined ? 'streaming' : 'undecided';
  }

  /** Holds every piece to the end (the final answer is not the streamed text). */
  holdToEnd(): void {
    this.#state = 'holding';
  }

  /** The text to send as content now for one delta (often the delta itself, possibly ''). */
  accept(text: string): string {
    // The common case first, with no work beyond this check.
    if (this.#state === 'streaming' && !this.#fenced) return text;
    switch (this.#state) {
      case 'streaming':
        return this.#withoutClosingFence(text);
      case 'holding':
        this.#held += text;
        return '';
      case 'undecided':
      case 'fence-opening':
        this.#held += text;
        return this.#decide();
    }
  }

  /**
   * Content still to send when a finished answer passed the route's checks (not a refusal): the
   * final JSON when the text was held (restored, unfenced, or validated scalar), the held-back tail
   * of a fenced answer that did not parse (the answer as written), nothing otherwise.
   */
  finalContent(result: Pick<ChatCompletionResult, 'text' | 'json'>): string {
    if (this.#state === 'streaming') return result.json === undefined ? this.#tail : '';
    return answerContent(result);
  }

  /** Looks at the start of a JSON answer once it shows what it is. */
  #decide(): string {
    if (this.#state === 'fence-opening') {
      const fence = jsonFenceLine.exec(this.#held);
      if (fence) {
        this.#fenced = true;
        this.#state = 'undecided';
        this.#held = this.#held.slice(fence[0].length);
      } else if (fenceLinePrefix.test(this.#held)) return '';
      else return this.#notJson();
    }
    const start = this.#held.search(/\S/);
    if (start === -1) return '';
    const first = this.#held[start]!;
    if (first === '`' && !this.#fenced) {
      this.#state = 'fence-opening';
      return this.#decide();
    }
    const kind = rootKindOfStart(first);
    if (kind === 'prose' || !this.#policy.rootKinds.has(kind)) return this.#notJson();
    if (kind === 'scalar') {
      this.#state = 'holding';
      return '';
    }
    this.#state = 'streaming';
    const text = this.#held;
    this.#held = '';
    return this.#fenced ? this.#withoutClosingFence(text) : text;
  }

  /** The answer does not start like the JSON asked for: held if it may still end well, else refused now. */
  #notJson(): string {
    const requested = this.#policy.requestedJson;
    if (requested !== undefined && !this.#policy.proseMayEndWell)
      throw invalidJsonStart(requested, this.#policy.modelName, this.#held);
    this.#state = 'holding';
    return '';
  }

  /** Sends all but trailing whitespace and backticks, which may be the start of the closing fence. */
  #withoutClosingFence(text: string): string {
    const pending = this.#tail + text;
    let cut = pending.length;
    while (cut > 0 && mayCloseFence(pending.charCodeAt(cut - 1))) cut--;
    this.#tail = pending.slice(cut);
    return pending.slice(0, cut);
  }
}

/** A backtick or JSON whitespace (space, tab, line feed, carriage return). */
function mayCloseFence(code: number): boolean {
  return code === 0x60 || code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
