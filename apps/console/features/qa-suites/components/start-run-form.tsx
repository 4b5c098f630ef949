'use client';

import type { SuiteRunJson } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { callConsole } from '../../console-call';

/** Starts a run of the suite's latest version and opens its page, where it fills in live. */
export function StartRunForm({ suiteId, cells }: { suiteId: string; cells: number }) {
  const router = useRouter();
  const [concurrency, setConcurrency] = useState('');
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function start(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setStarting(true);
    setProblem(null);
    const answer = await callConsole<SuiteRunJson>(`/suites/${encodeURIComponent(suiteId)}/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(concurrency.trim() === '' ? {} : { concurrency: Number(concurrency) }),
    });
    if (answer.ok) router.push(`/suites/runs/${encodeURIComponent(answer.data.id)}`);
    else {
      setStarting(false);
      setProblem(`The run was refused: ${answer.message}`);
    }
  }

  return (
    <form className="start-run" onSubmit={(event) => void start(event)} aria-label="Run the suite">
      <label className="inline">
        Concurrency per provider <span className="muted">(optional)</span>
        <input
          type="number"
          min={1}
          max={64}
          inputMode="numeric"
          value={concurrency}
          onChange={(event) => setConcurrency(event.target.value)}
          className="narrow"
        />
      </label>
      <button type="submit" disabled={starting || !hydrated}>
        {starting ? 'Starting…' : `Run (${cells} ${cells === 1 ? 'cell' : 'cells'})`}
      </button>
      {problem !== null && (
        <p role="alert" className="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
