'use client';

import type { ImportedSuiteJson, UnsupportedPartJson } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { callConsole } from '../../console-call';

type ImportFormat = 'yaml' | 'json' | 'promptfoo';

/** The format a file's name suggests; the select stays as it is for any other name. */
function formatOfFileName(name: string): ImportFormat | undefined {
  if (/promptfoo/i.test(name)) return 'promptfoo';
  if (/\.json$/i.test(name)) return 'json';
  if (/\.ya?ml$/i.test(name)) return 'yaml';
  return undefined;
}

/** Where an import goes: a new suite, or the next version of one (edited from `baseVersion`). */
export type ImportTarget = { kind: 'new' } | { kind: 'version'; suiteId: string; baseVersion: number };

/**
 * Imports a suite file (chosen, or pasted): a suite in YAML or JSON, or a promptfoo config, as a
 * new suite or as the next version of one. The API reads it and says what it could not carry
 * over; that list stays on screen after the import.
 */
export function ImportSuiteForm({ target = { kind: 'new' } }: { target?: ImportTarget }) {
  const [format, setFormat] = useState<ImportFormat>('yaml');
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [importing, setImporting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [imported, setImported] = useState<{
    id: string;
    name: string;
    version: number;
    unsupported: UnsupportedPartJson[];
  } | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const router = useRouter();
  useEffect(() => setHydrated(true), []);

  async function chooseFile(event: ChangeEvent<HTMLInputElement>): Promise<void> {
    const file = event.target.files?.[0];
    if (file === undefined) return;
    setFormat((current) => formatOfFileName(file.name) ?? current);
    setText(await file.text());
  }

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setImporting(true);
    setProblem(null);
    setImported(null);
    const trimmedNote = note.trim();
    const answer = await callConsole<ImportedSuiteJson>(
      target.kind === 'new' ? '/suites/import' : `/suites/${encodeURIComponent(target.suiteId)}/import`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          target.kind === 'new'
            ? { format, text }
            : {
                format,
                text,
                baseVersion: target.baseVersion,
                ...(trimmedNote === '' ? {} : { note: trimmedNote }),
              },
        ),
      },
    );
    setImporting(false);
    if (!answer.ok) {
      setProblem(`Not imported: ${answer.message}`);
      return;
    }
    setImported({
      id: answer.data.suite.id,
      name: answer.data.suite.name,
      version: answer.data.suite.latestVersion,
      unsupported: answer.data.unsupported,
    });
    // The suite's page shows the new version (definition, run button, versions); this form stays,
    // with what was not carried over, and now edits from the new version.
    if (target.kind === 'version') {
      setNote('');
      router.refresh();
    }
  }

  return (
    <form
      className="suite-editor"
      onSubmit={(event) => void submit(event)}
      aria-label={target.kind === 'new' ? 'Import a suite' : 'Import a file as the next version'}
    >
      <label className="inline">
        Format
        <select value={format} onChange={(event) => setFormat(event.target.value as ImportFormat)}>
          <option value="yaml">Suite file (YAML)</option>
          <option value="json">Suite file (JSON)</option>
          <option value="promptfoo">promptfoo config</option>
        </select>
      </label>
      <label>
        File
        <input
          type="file"
          accept=".yaml,.yml,.json,text/yaml,application/json"
          onChange={(event) => void chooseFile(event)}
        />
      </label>
      <label htmlFor="import-text">Or paste the file’s text</label>
      <textarea
        id="import-text"
        className="mono suite-text"
        rows={10}
        value={text}
        onChange={(event) => setText(event.target.value)}
        spellCheck={false}
      />
      {target.kind === 'version' && (
        <label>
          Note for this version <span className="muted">(optional: what changed)</span>
          <input value={note} maxLength={2_000} onChange={(event) => setNote(event.target.value)} />
        </label>
      )}
      <div className="actions">
        <button type="submit" disabled={importing || !hydrated || text.trim() === ''}>
          {importing
            ? 'Importing…'
            : target.kind === 'new'
              ? 'Import'
              : `Import as v${target.baseVersion + 1}`}
        </button>
      </div>
      {problem !== null && (
        <p role="alert" className="alert">
          {problem}
        </p>
      )}
      {imported !== null && (
        <div role="status" className="notice">
          <p>
            Imported{' '}
            <a href={`/suites/${encodeURIComponent(imported.id)}`}>
              {imported.name}
              {target.kind === 'version' && <> v{imported.version}</>}
            </a>
            .
          </p>
          {imported.unsupported.length === 0 ? (
            <p>Everything in the file was carried over.</p>
          ) : (
            <>
              <p>Not carried over ({imported.unsupported.length}):</p>
              <ul aria-label="Unsupported parts">
                {imported.unsupported.map((part, index) => (
                  <li key={index}>
                    <code>{part.path}</code>: {part.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </form>
  );
}
