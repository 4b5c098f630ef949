'use client';

import type { BuildEventJson } from '@agentdesk/api-contract';
import { useEffect, useRef, useState } from 'react';
import { readConsoleAnswer } from '../../console-call';
import { buildLogLineOf, buildOutcomeOf, readCheckedBuildEvent, type BuildOutcome } from '../build-log-model';
import { createEventStreamParser } from '../../event-stream';

const outcomeText: Record<BuildOutcome, string> = {
  built: 'Build succeeded: a new image was built.',
  current: 'Build succeeded: the image was already current.',
  failed: 'Build failed: the previous image stays in use.',
};

type StreamState =
  | { phase: 'streaming' }
  | { phase: 'ended'; outcome: BuildOutcome | undefined }
  | { phase: 'broken'; message: string };

/**
 * A build's log as it streams: the console's route handler relays the API's Server-Sent Events
 * (replayed from the start, then live), and each event is shown as it arrives.
 */
export function BuildLogStream({ buildId, onEnd }: { buildId: string; onEnd?: () => void }) {
  const [events, setEvents] = useState<BuildEventJson[]>([]);
  const [state, setState] = useState<StreamState>({ phase: 'streaming' });
  const logElement = useRef<HTMLDivElement>(null);

  // Follow the newest line as the log grows, like a terminal.
  useEffect(() => {
    const element = logElement.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
  }, [events]);

  useEffect(() => {
    const abort = new AbortController();
    setEvents([]);
    setState({ phase: 'streaming' });
    let outcome: BuildOutcome | undefined;
    const feed = createEventStreamParser(({ data }) => {
      const event = readCheckedBuildEvent(data);
      if (event === undefined) return;
      outcome = buildOutcomeOf(event) ?? outcome;
      setEvents((previous) => [...previous, event]);
    });
    async function follow(): Promise<void> {
      const response = await fetch(`/sandbox/builds/${buildId}/events`, {
        headers: { accept: 'text/event-stream' },
        signal: abort.signal,
      });
      if (!response.ok || response.body === null) {
        const answer = await readConsoleAnswer<never>(response);
        setState({ phase: 'broken', message: answer.ok ? 'The build log stream is empty.' : answer.message });
        return;
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        feed(value);
      }
      setState({ phase: 'ended', outcome });
      onEnd?.();
    }
    follow().catch((error: unknown) => {
      if (abort.signal.aborted) return;
      setState({
        phase: 'broken',
        message: `The build log stream was interrupted: ${error instanceof Error ? error.message : String(error)}`,
      });
    });
    return () => abort.abort();
    // Only a new build id follows a new stream: onEnd changing (a parent re-render) must not replay it.
  }, [buildId]);

  return (
    <section className="build-log" aria-label={`Build log ${buildId}`}>
      <p
        role="status"
        className={`build-state build-state-${state.phase === 'ended' ? (state.outcome ?? 'ended') : state.phase}`}
      >
        {state.phase === 'streaming' && 'Building… the log streams below as it happens.'}
        {state.phase === 'ended' &&
          (state.outcome === undefined ? 'The build log ended.' : outcomeText[state.outcome])}
        {state.phase === 'broken' && state.message}
      </p>
      <div ref={logElement} className="log-lines" role="log" aria-label="Build log lines" tabIndex={0}>
        <ol>
          {events.map((event, index) => {
            const line = buildLogLineOf(event);
            return (
              <li key={index} className={`log-${line.kind}`}>
                {line.text}
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
