'use client';

import type { SuiteJson } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { callConsole } from '../../console-call';
import type { SuiteEditorAnswer } from '../server/suite-routes';
import type { SuiteTextFormat, SuiteTextIssue } from '../server/suite-text';

export type SuiteEditorMode = { kind: 'create' } | { kind: 'edit'; suiteId: string; baseVersion: number };

function issueText(issue: SuiteTextIssue): string {
  const where = [issue.line === null ? null : `line ${issue.line}`, issue.path === '' ? null : issue.path]
    .filter((part) => part !== null)
    .join(', ');
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}

/**
 * A suite as text (YAML or JSON), saved as a new suite or as the next version of one. The console's
 * server reads the text and answers its problems by path and line, shown under the editor; the
 * API's refusals (a taken name, a version saved by someone else meanwhile) are shown as they come.
 */
export function SuiteEditor({
  mode,
  initialText,
  initialFormat = 'yaml',
}: {
  mode: SuiteEditorMode;
  initialText: string;
  initialFormat?: SuiteTextFormat;
}) {
  const router = useRouter();
  const [text, setText] = useState(initialText);
  const [format, setFormat] = useState<SuiteTextFormat>(initialFormat);
  const [note, setNote] = useState('');
  const [issues, setIssues] = useState<SuiteTextIssue[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = mode.kind === 'create' ? 'new-suite' : 'edit-suite';

  async function save(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    setIssues([]);
    const path =
      mode.kind === 'create' ? '/suites/create' : `/suites/${encodeURIComponent(mode.suiteId)}/save`;
    const body =
      mode.kind === 'create' ? { format, text, note } : { format, text, note, baseVersion: mode.baseVersion };
    const answer = await callConsole<SuiteEditorAnswer>(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    setSaving(false);
    if (!answer.ok) {
      setProblem(
        answer.status === 409 && mode.kind === 'edit'
          ? `Not saved: ${answer.message}. Someone may have saved a newer version than v${mode.baseVersion} since you opened this page: reload to edit the latest (copy your text first).`
          : `Not saved: ${answer.message}`,
      );
      return;
    }
    if (answer.data.outcome === 'invalid') {
      setIssues(answer.data.issues);
      return;
    }
    const suite: SuiteJson = answer.data.suite;
    router.push(`/suites/${encodeURIComponent(suite.id)}`);
    router.refresh();
  }

  return (
    <form
      className="suite-editor"
      onSubmit={(event) => void save(event)}
      aria-label={mode.kind === 'create' ? 'New suite' : 'Edit suite'}
    >
      <label className="inline">
        Format
        <select value={format} onChange={(event) => setFormat(event.target.value as SuiteTextFormat)}>
          <option value="yaml">YAML</option>
          <option value="json">JSON</option>
        </select>
      </label>
      <label htmlFor={`${id}-text`}>Suite definition</label>
      <textarea
        id={`${id}-text`}
        className="mono suite-text"
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={Math.min(30, Math.max(12, text.split('\n').length + 1))}
        spellCheck={false}
        aria-invalid={issues.length > 0}
        aria-describedby={issues.length > 0 ? `${id}-issues` : undefined}
      />
      {issues.length > 0 && (
        <div role="alert" className="alert" id={`${id}-issues`}>
          The suite has {issues.length === 1 ? 'a problem' : `${issues.length} problems`}:
          <ul aria-label="Problems of the suite">
            {issues.map((issue, index) => (
              <li key={index}>{issueText(issue)}</li>
            ))}
          </ul>
        </div>
      )}
      <label>
        Note for this version <span className="muted">(optional: what changed)</span>
        <input value={note} onChange={(event) => setNote(event.target.value)} maxLength={2000} />
      </label>
      <div className="actions">
        <button type="submit" disabled={saving || !hydrated || text.trim() === ''}>
          {saving ? 'Saving…' : mode.kind === 'create' ? 'Create suite' : `Save as v${mode.baseVersion + 1}`}
        </button>
      </div>
      {problem !== null && (
        <p role="alert" className="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
