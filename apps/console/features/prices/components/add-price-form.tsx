'use client';

import type { ModelPriceJson } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { callConsole } from '../../console-call';

/**
 * Adds a price version: US dollars per million tokens, from now or a later date. A price is never
 * edited: a new version applies to calls made from its date on, and costs already computed stay.
 */
export function AddPriceForm({ providers }: { providers: readonly string[] }) {
  const router = useRouter();
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
    };
    const from = text('effectiveFrom');
    const body = {
      model: text('model') ?? '',
      provider: text('provider') ?? '',
      inputUsdPerMillion: text('input') ?? '',
      cachedInputUsdPerMillion: text('cachedInput'),
      outputUsdPerMillion: text('output') ?? '',
      thinkingUsdPerMillion: text('thinking'),
      // A local date-time from the picker, sent as an instant.
      effectiveFrom: from === undefined ? undefined : new Date(from).toISOString(),
    };
    setBusy(true);
    setProblem(null);
    setAdded(null);
    const answer = await callConsole<ModelPriceJson>('/prices/add', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.ok) {
      setAdded(`Added a price for ${answer.data.model}.`);
      form.reset();
      router.refresh();
    } else setProblem(answer.message);
    setBusy(false);
  }

  return (
    <section aria-labelledby="add-price-heading" className="card">
      <h2 id="add-price-heading">Add a price version</h2>
      <p className="muted">
        US dollars per million tokens. Cached input defaults to the input price, thinking to the output price.
      </p>
      <form onSubmit={submit} className="filters" aria-label="Add a price version">
        <div className="field">
          <label htmlFor="price-model">Model (exact name)</label>
          <input id="price-model" name="model" required maxLength={200} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="price-provider">Provider</label>
          <select id="price-provider" name="provider" defaultValue={providers[0]}>
            {providers.map((provider) => (
              <option key={provider} value={provider}>
                {provider}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="price-input">Input $/M</label>
          <input id="price-input" name="input" required inputMode="decimal" placeholder="2.50" />
        </div>
        <div className="field">
          <label htmlFor="price-cached">Cached input $/M</label>
          <input id="price-cached" name="cachedInput" inputMode="decimal" />
        </div>
        <div className="field">
          <label htmlFor="price-output">Output $/M</label>
          <input id="price-output" name="output" required inputMode="decimal" placeholder="10.00" />
        </div>
        <div className="field">
          <label htmlFor="price-thinking">Thinking $/M</label>
          <input id="price-thinking" name="thinking" inputMode="decimal" />
        </div>
        <div className="field">
          <label htmlFor="price-from">Effective from (empty: now)</label>
          <input id="price-from" name="effectiveFrom" type="datetime-local" />
        </div>
        <div className="field actions">
          <button type="submit" disabled={busy}>
            Add price
          </button>
        </div>
      </form>
      {problem !== null && (
        <p role="alert" className="alert">
          {problem}
        </p>
      )}
      {added !== null && (
        <p role="status" className="notice">
          {added}
        </p>
      )}
    </section>
  );
}
