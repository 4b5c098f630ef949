/**
 * The provider answered, but not with the JSON the caller asked for (e.g. prose where
 * `response_format: json_object` was requested). Sent as 502 `invalid_model_output`: the request
 * was valid (not a 4xx) and AgentDesk itself did not fail (not a 500) — the upstream model returned
 * an answer this gateway cannot pass on under the contract the caller asked for, which is what 502
 * Bad Gateway means. OpenAI SDKs treat 5xx as retryable, which fits: another sample may be JSON.
 */
export class InvalidModelOutputError extends Error {
  override readonly name = 'InvalidModelOutputError';
}
