'use client';

import type { SuiteJson } from '@agentdesk/api-contract';
import { useEffect, useState, type FormEvent } from 'react';
import { callConsole } from '../../console-call';

export interface SuiteChoice {
  id: string;
  name: string;
  latestVersion: number;
}

/** A case id from a run's name: "Review summary" → "review-summary". */
export function caseIdFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '')
    .slice(0, 80);
  return slug === '' ? 'lab-run' : slug;
}

/** A lab run saved as a case of a suite: its schema, prompt and system prompt, as the suite's next version. */
export function SaveLabCaseForm({
  labRunId,
  runName,
  suites,
}: {
  labRunId: string;
  runName: string;
  suites: SuiteChoice[];
}) {
  const [suiteId, setSuiteId] = useState(suites[0]?.id ?? '');
  const [caseId, setCaseId] = useState(caseIdFromName(runName));
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<
    { ok: true; suite: SuiteJson } | { ok: false; message: string } | null
  >(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function save(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const suite = suites.find((choice) => choice.id === suiteId);
    if (suite === undefined) return;
    setSaving(true);
    setOutcome(null);
    const answer = await callConsole<SuiteJson>(`/suites/${encodeURIComponent(suite.id)}/cases-from-lab`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ labRunId, caseId: caseId.trim(), baseVersion: suite.latestVersion }),
    });
    setSaving(false);
    setOutcome(answer.ok ? { ok: true, suite: answer.data } : { ok: false, message: answer.message });
  }

  return (
    <form
      className="card save-lab-case"
      onSubmit={(event) => void save(event)}
      aria-labelledby="save-case-heading"
    >
      <h2 id="save-case-heading">Save as a case of a suite</h2>
      <label>
        Suite
        <select value={suiteId} onChange={(event) => setSuiteId(event.target.value)}>
          {suites.map((suite) => (
            <option key={suite.id} value={suite.id}>
              {suite.name} (v{suite.latestVersion})
            </option>
          ))}
        </select>
      </label>
      <label>
        Case id
        <input
          className="mono"
          value={caseId}
          onChange={(event) => setCaseId(event.target.value)}
          maxLength={80}
        />
      </label>
      <div className="actions">
        <button type="submit" disabled={saving || !hydrated || caseId.trim() === '' || suiteId === ''}>
          {saving ? 'Saving…' : 'Save as case'}
        </button>
      </div>
      {outcome !== null &&
        (outcome.ok ? (
          <p role="status" className="check-ok">
            Saved as case <code>{caseId.trim()}</code> in{' '}
            <a href={`/suites/${encodeURIComponent(outcome.suite.id)}`}>
              {outcome.suite.name} v{outcome.suite.latestVersion}
            </a>
            .
          </p>
        ) : (
          <p role="alert" className="alert">
            Not saved: {outcome.message}
          </p>
        ))}
    </form>
  );
}
