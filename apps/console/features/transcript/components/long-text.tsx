/** Above either limit a text is shown as its beginning, the rest behind a disclosure. */
const PREVIEW_CHARACTERS = 1_200;
const PREVIEW_LINES = 20;

function previewOf(text: string): string | undefined {
  const lines = text.split('\n');
  if (text.length <= PREVIEW_CHARACTERS && lines.length <= PREVIEW_LINES) return undefined;
  return lines.slice(0, PREVIEW_LINES).join('\n').slice(0, PREVIEW_CHARACTERS);
}

/** Preformatted text (tool results, arguments) that stays readable when it is huge. */
export function LongText({ text, label, summary }: { text: string; label: string; summary?: string }) {
  const preview = previewOf(text);
  if (preview === undefined)
    return (
      <pre className="block" tabIndex={0}>
        {text}
      </pre>
    );
  return (
    <div className="long-text">
      <pre className="block" tabIndex={0}>
        {preview}…
      </pre>
      <details>
        <summary>
          {summary ?? `Show the whole ${label} (${text.length.toLocaleString('en-US')} characters)`}
        </summary>
        <pre className="block" tabIndex={0}>
          {text}
        </pre>
      </details>
    </div>
  );
}
