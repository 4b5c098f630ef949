/**
 * Tool arguments travel as JSON text (OpenAI's form). Anthropic and Gemini need an object; text that
 * is not a JSON object (a model can emit broken arguments) is kept under `_raw` rather than dropped.
 */
export function parseToolArguments(argumentsText: string): Record<string, unknown> {
  if (argumentsText.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through: keep the text so nothing the model produced is lost
  }
  return { _raw: argumentsText };
}
