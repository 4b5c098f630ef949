'use client';

import type { RunJson } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { callConsole } from '../../console-call';
import { exampleSchemaText } from '../example-schema';
import type { SchemaCheck } from '../schema-check';

type Family = 'gpt' | 'claude' | 'gemini';
const families: readonly Family[] = ['gpt', 'claude', 'gemini'];

/** Typing pauses this long before the text is checked: one check per pause, not per key. */
const CHECK_DELAY_MS = 150;

/**
 * The lab's editor: a JSON Schema checked as it is typed, a prompt, and the models to try it on
 * (one per family, several at once). Running it stores the run and opens its page.
 *
 * The schema is checked by the console's server (`POST /lab/schema-check`), the example's while
 * the page renders (`exampleCheck`): ajv generates code with `new Function`, which the page's
 * Content-Security-Policy refuses, and the browser loads no validator at all.
 */
export function LabRunForm({
  suggestedModels,
  exampleCheck,
}: {
  suggestedModels: Record<Family, string>;
  exampleCheck: SchemaCheck;
}) {
  const router = useRouter();
  const [name, setName] = useState('Review summary');
  const [schemaText, setSchemaText] = useState(exampleSchemaText);
  const [check, setCheck] = useState<SchemaCheck | 'checking'>(exampleCheck);
  // Only the newest text's check may land: an older one finishing late is dropped.
  const checkedText = useRef(exampleSchemaText);
  const pendingCheck = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [prompt, setPrompt] = useState('Summarise this review: “Great battery, weak camera.”');
  const [strict, setStrict] = useState(true);
  const [models, setModels] = useState<Record<Family, string>>(suggestedModels);
  const [chosen, setChosen] = useState<Record<Family, boolean>>({ gpt: true, claude: true, gemini: true });
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Until React has hydrated, a click would do nothing: the controls wait for it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  useEffect(() => () => clearTimeout(pendingCheck.current), []);

  async function checkOnServer(text: string): Promise<void> {
    const answer = await callConsole<SchemaCheck>('/lab/schema-check', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    if (checkedText.current !== text) return;
    setCheck(
      answer.ok
        ? answer.data
        : { status: 'invalid-schema', message: `The schema could not be checked: ${answer.message}` },
    );
  }

  function editSchema(text: string): void {
    setSchemaText(text);
    checkedText.current = text;
    setCheck('checking');
    clearTimeout(pendingCheck.current);
    pendingCheck.current = setTimeout(() => void checkOnServer(text), CHECK_DELAY_MS);
  }

  const targets = families.filter((family) => chosen[family] && models[family].trim() !== '');
  const missing = [
    ...(name.trim() === '' ? ['a name'] : []),
    ...(check === 'checking' ? ['the schema check'] : check.status === 'valid' ? [] : ['a valid schema']),
    ...(prompt.trim() === '' ? ['a prompt'] : []),
    ...(targets.length === 0 ? ['at least one model'] : []),
  ];

  async function run(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (check === 'checking' || check.status !== 'valid' || missing.length > 0) return;
    setRunning(true);
    setProblem(null);
    const answer = await callConsole<RunJson>('/lab/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: name.trim(),
        schema: check.schema,
        prompt,
        strict,
        targets: targets.map((family) => ({ model: models[family].trim() })),
      }),
    });
    if (answer.ok) router.push(`/lab/runs/${answer.data.id}`);
    else {
      setProblem(answer.message);
      setRunning(false);
    }
  }

  return (
    <form className="card lab-form" onSubmit={(event) => void run(event)} aria-labelledby="lab-form-heading">
      <h2 id="lab-form-heading">New run</h2>
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.target.value)} maxLength={200} />
      </label>
      <label htmlFor="lab-schema">JSON Schema</label>
      <textarea
        id="lab-schema"
        className="mono schema-editor"
        value={schemaText}
        onChange={(event) => editSchema(event.target.value)}
        rows={14}
        spellCheck={false}
        aria-describedby="lab-schema-check"
        aria-invalid={check !== 'checking' && check.status !== 'valid'}
      />
      <p
        id="lab-schema-check"
        role="status"
        className={check === 'checking' ? 'muted' : check.status === 'valid' ? 'check-ok' : 'check-problem'}
      >
        {check === 'checking'
          ? 'Checking the schema…'
          : check.status === 'valid'
            ? 'Valid JSON Schema.'
            : check.message}
      </p>
      <label>
        Prompt
        <textarea value={prompt} onChange={(event) => setPrompt(event.target.value)} rows={3} />
      </label>
      <fieldset className="targets">
        <legend>Targets (several at once)</legend>
        {families.map((family) => (
          <div key={family} className="target-row">
            <label className="inline">
              <input
                type="checkbox"
                checked={chosen[family]}
                onChange={(event) => setChosen({ ...chosen, [family]: event.target.checked })}
              />
              Use {family}
            </label>
            <label className="inline">
              <span className="visually-hidden">{family} model</span>
              <input
                className="mono"
                value={models[family]}
                onChange={(event) => setModels({ ...models, [family]: event.target.value })}
                disabled={!chosen[family]}
                aria-label={`${family} model`}
              />
            </label>
          </div>
        ))}
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={strict} onChange={(event) => setStrict(event.target.checked)} />
        Strict (lower the schema for each provider’s structured-output mode)
      </label>
      <div className="actions">
        <button type="submit" disabled={running || missing.length > 0 || !hydrated}>
          {running
            ? `Running on ${targets.length} models…`
            : `Run on ${targets.length} ${targets.length === 1 ? 'model' : 'models'}`}
        </button>
        {missing.length > 0 && <span className="muted">Needs {missing.join(', ')}.</span>}
      </div>
      {problem !== null && (
        <p role="alert" className="alert">
          The run was refused: {problem}
        </p>
      )}
    </form>
  );
}
