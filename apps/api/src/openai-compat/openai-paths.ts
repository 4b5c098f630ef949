/**
 * Whether a request path belongs to the OpenAI-compatible API (`/v1/chat/completions`,
 * `/v1/models` and anything below them). Every error there — a 404, a 405, a body the parser
 * refuses, an oversized header block — is answered in OpenAI's error shape, so OpenAI clients
 * raise their usual error classes instead of failing to read the body.
 */
export function isOpenAICompatPath(path: string): boolean {
  const lower = path.toLowerCase();
  return ['/v1/chat/completions', '/v1/models'].some(
    (prefix) => lower === prefix || lower.startsWith(`${prefix}/`),
  );
}
