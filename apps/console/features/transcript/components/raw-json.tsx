// Long blocks scroll (max-height): tabIndex lets keyboard users scroll them too.
/** The record exactly as the API returned it, behind a toggle. */
export function RawJson({ value, label = 'Raw JSON' }: { value: unknown; label?: string }) {
  return (
    <details className="raw-json">
      <summary>{label}</summary>
      <pre className="block" tabIndex={0}>
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}
