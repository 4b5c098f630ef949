/** The three wire protocols the emulator speaks. */
export type ProviderName = 'openai' | 'anthropic' | 'gemini';

/** One provider request as the emulator received it (control requests are not recorded). */
export interface RecordedRequest {
  /** Which protocol's route received the request. */
  provider: ProviderName;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Query parameters (last value wins when a name repeats). */
  query: Record<string, string>;
  /** Request headers, lower-cased names; repeated headers are joined with `, `. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when the body was not valid JSON. */
  body: unknown;
  /** The model named by the body (OpenAI, Anthropic) or the path (Gemini), when present. */
  model: string | undefined;
  /** True when the request asked for a streamed answer. */
  stream: boolean;
  /** The id sent back in `x-request-id` (OpenAI) or `request-id` (Anthropic); generated for Gemini too. */
  requestId: string;
  /** Arrival time, epoch milliseconds. */
  receivedAt: number;
}
