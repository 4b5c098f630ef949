'use client';

import { refusalMessageOf, runJsonSchema } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { checkSchemaText } from '../schema-check';

type Family = 'gpt' | 'claude' | 'gemini';
const families: readonly Family[] = ['gpt', 'claude', 'gemini'];

const exampleSchema = JSON.stringify(
  {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1 },
      rating: { type: 'integer', minimum: 1, maximum: 5 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    },
    required: ['title', 'rating'],
    additionalProperties: false,
  },
  null,
  2,
);

/**
 * The lab's editor: a JSON Schema checked as it is typed, a prompt, and the models to try it on
 * (one per family, several at once). Running it stores the run and opens its page.
 */
export function LabRunForm({ suggestedModels }: { suggestedModels: Record<Family, string> }) {
  const router = useRouter();
  const [name, setName] = useState('Review summary');
  const [schemaText, setSchemaText] = useState(exampleSchema);
  const [prompt, setPrompt] = useState('Summarise this review: “Great battery, weak camera.”');
  const [strict, setStrict] = useState(true);
  const [models, setModels] = useState<Record<Family, string>>(suggestedModels);
  const [chosen, setChosen] = useState<Record<Family, boolean>>({ gpt: true, claude: true, gemini: true });
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Until React has hydrated, a click would do nothing: the controls wait for it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const check = useMemo(() => checkSchemaText(schemaText), [schemaText]);
  const targets = families.filter((family) => chosen[family] && models[family].trim() !== '');
  const missing = [
    ...(name.trim() === '' ? ['a name'] : []),
    ...(check.status === 'valid' ? [] : ['a valid schema']),
    ...(prompt.trim() === '' ? ['a prompt'] : []),
    ...(targets.length === 0 ? ['at least one model'] : []),
  ];

  async function run(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (check.status !== 'valid' || missing.length > 0) return;
    setRunning(true);
    setProblem(null);
    try {
      const response = await fetch('/lab/runs', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          name: name.trim(),
          schema: check.schema,
          prompt,
          strict,
          targets: targets.map((family) => ({ model: models[family].trim() })),
        }),
      });
      const body: unknown = await response.json().catch(() => undefined);
      const run = runJsonSchema.safeParse(body);
      if (!response.ok || !run.success) {
        setProblem(refusalMessageOf(response.status, body));
        setRunning(false);
        return;
      }
      router.push(`/lab/runs/${run.data.id}`);
    } catch {
      setProblem('The console cannot be reached; try again in a moment.');
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
        onChange={(event) => setSchemaText(event.target.value)}
        rows={14}
        spellCheck={false}
        aria-describedby="lab-schema-check"
        aria-invalid={check.status !== 'valid'}
      />
      <p
        id="lab-schema-check"
        role="status"
        className={check.status === 'valid' ? 'check-ok' : 'check-problem'}
      >
        {check.status === 'valid' ? 'Valid JSON Schema.' : check.message}
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
