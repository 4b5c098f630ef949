import type { TargetResultJson } from '@agentdesk/api-contract';
import { CallCostText } from '../../cost';
import { formatDuration, formatTokens } from '../../transcript';
import { readablePointer, valueAtPointer } from '../json-pointer';

function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="block" tabIndex={0} aria-label={label}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

function Validation({ result }: { result: TargetResultJson }) {
  if (result.validation === null) return <p className="muted">Not validated: there was no JSON answer.</p>;
  if (result.validation.valid) return <p className="check-ok">Valid against the schema.</p>;
  return (
    <ul className="validation-errors" aria-label={`Validation errors of ${result.model}`}>
      {result.validation.errors.map((error, index) => {
        const at = valueAtPointer(result.json, error.path);
        return (
          <li key={index}>
            <code title={error.path === '' ? '(root)' : error.path}>{readablePointer(error.path)}</code>:{' '}
            {error.message} <span className="muted">({error.keyword})</span>
            {at.found && (
              <>
                {' '}
                — the answer has <code>{JSON.stringify(at.value)}</code>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** One target of a run: what it was sent, what it answered, and how the answer fared. */
export function TargetResultPanel({ result }: { result: TargetResultJson }) {
  const verdict =
    result.status === 'error'
      ? 'error'
      : result.validation === null
        ? 'no answer'
        : result.validation.valid
          ? 'valid'
          : 'invalid';
  return (
    <article
      className={`card target-result target-${result.status}`}
      aria-label={`Result of ${result.model}`}
    >
      <header>
        <h2 className="mono">{result.model}</h2>
        <span className="muted">{result.provider ?? 'no provider'}</span>{' '}
        <span className={`badge badge-result-${verdict.replace(' ', '-')}`}>{verdict}</span>
      </header>
      <p className="usage">
        {formatDuration(result.latencyMs)}
        {result.attempts !== null &&
          ` · ${result.attempts} ${result.attempts === 1 ? 'attempt' : 'attempts'}`}
        {result.usage !== null &&
          ` · ${formatTokens(result.usage.inputTokens)} in / ${formatTokens(result.usage.outputTokens)} out` +
            (result.usage.thinkingTokens > 0
              ? ` / ${formatTokens(result.usage.thinkingTokens)} thinking`
              : '') +
            (result.usage.cachedInputTokens > 0
              ? ` (${formatTokens(result.usage.cachedInputTokens)} cached)`
              : '')}
        {result.finishReason !== null && ` · finish: ${result.finishReason}`}
        {' · cost '}
        <CallCostText costMicros={result.costMicros} />
      </p>
      {result.error !== undefined && (
        <div role="note" aria-label={`Error of ${result.model}`} className="failure">
          <strong>
            {result.error.kind} error ({result.error.code}
            {result.error.status !== undefined && `, HTTP ${result.error.status}`}):
          </strong>{' '}
          {result.error.message}
          {result.error.pointer !== undefined && (
            <>
              {' '}
              at <code>{result.error.pointer}</code>
            </>
          )}
        </div>
      )}
      {result.warnings.length > 0 && (
        <ul className="warnings" aria-label={`Warnings of ${result.model}`}>
          {result.warnings.map((warning, index) => (
            <li key={index}>{warning.message}</li>
          ))}
        </ul>
      )}
      <h3>Validation</h3>
      <Validation result={result} />
      <h3>Parsed JSON</h3>
      {result.json === null || result.json === undefined ? (
        <p className="muted">No parsed answer.</p>
      ) : (
        <Json value={result.json} label={`Parsed JSON of ${result.model}`} />
      )}
      <h3>Raw output</h3>
      {result.rawOutput === null ? (
        <p className="muted">No output.</p>
      ) : (
        <pre className="block" tabIndex={0} aria-label={`Raw output of ${result.model}`}>
          {result.rawOutput}
        </pre>
      )}
      <h3>
        Lowered schema{' '}
        {result.schemaTarget !== null && <span className="muted">({result.schemaTarget})</span>}
      </h3>
      {result.loweredSchema === null ? (
        <p className="muted">The schema could not be lowered for this provider.</p>
      ) : (
        <details>
          <summary>The schema {result.model} was sent</summary>
          <Json value={result.loweredSchema} label={`Lowered schema of ${result.model}`} />
        </details>
      )}
      {result.changes.length === 0 ? (
        <p className="muted">Lowering changed nothing.</p>
      ) : (
        <ul className="schema-changes" aria-label={`What lowering changed for ${result.model}`}>
          {result.changes.map((change, index) => (
            <li key={index}>
              <code>{change.pointer === '' ? '/' : change.pointer}</code> <code>{change.keyword}</code>{' '}
              <strong>{change.action}</strong>: {change.detail}
            </li>
          ))}
        </ul>
      )}
      <h3>Exact request</h3>
      {result.request === null ? (
        <p className="muted">No request was sent.</p>
      ) : (
        <details>
          <summary>The request body sent to {result.provider ?? 'the provider'}</summary>
          <Json value={result.request} label={`Request of ${result.model}`} />
        </details>
      )}
    </article>
  );
}
