/** OpenAI's default response-format name, used when a run's name has no usable characters. */
const fallbackName = 'response';

/**
 * The response-format `name` for a run: its name with every run of characters outside
 * `[a-zA-Z0-9_-]` turned into `_`, at most 64 characters (OpenAI refuses anything else).
 */
export function schemaNameOf(runName: string): string {
  const name = runName
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return name === '' ? fallbackName : name;
}
