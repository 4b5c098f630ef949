import { prettyArguments } from '../format';
import type { ToolExchange } from '../transcript-model';
import { transcriptCopySummary } from '../tool-result-wording';
import { FullToolResult } from './full-tool-result';
import { LongText } from './long-text';
import { RawJson } from './raw-json';

/** A tool call as a card: its arguments, its result (long results collapsed), the raw records behind a toggle. */
export function ToolCallCard({ exchange, sessionId }: { exchange: ToolExchange; sessionId: string }) {
  const { call, result, resultText, resultIsError } = exchange;
  const state = result === undefined ? 'no result' : resultIsError ? 'error' : 'ok';
  return (
    <article className={`tool-card tool-${state.replace(' ', '-')}`} aria-label={`Tool call ${call.name}`}>
      <header>
        <span className="tool-icon" aria-hidden="true">
          ⚙
        </span>
        <h4>
          Tool call <code>{call.name}</code>
        </h4>
        <span className={`badge badge-tool-${state.replace(' ', '-')}`}>{state}</span>
      </header>
      <h5>Arguments</h5>
      <LongText text={prettyArguments(call.arguments)} label="arguments" />
      <h5>Result</h5>
      {resultText === undefined ? (
        <p className="muted">No result was recorded (the turn stopped before the tool answered).</p>
      ) : (
        <LongText text={resultText} label="result" summary={transcriptCopySummary(resultText.length)} />
      )}
      {result !== undefined && (
        <FullToolResult sessionId={sessionId} toolCallId={call.id} modelCharacters={resultText?.length} />
      )}
      <RawJson value={{ call, result: result ?? null }} label="Raw JSON of the call and its result" />
    </article>
  );
}
