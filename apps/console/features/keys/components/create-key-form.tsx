'use client';

import type { ApiKeyRole, CreatedApiKeyJson } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { callConsole } from '../../console-call';
import { visibleText } from '../../visible-text';

interface Created {
  key: string;
  label: string;
  role: ApiKeyRole;
}

/**
 * Creates a key and shows it once. The key lives only in this component's state: it is not in the
 * URL, not in storage, and the answer carrying it is `no-store`, so a reload forgets it. The roles
 * come from the server page (the contract's list), so this client code imports no contract values.
 */
export function CreateKeyForm({ roles }: { roles: readonly ApiKeyRole[] }) {
  const router = useRouter();
  const [role, setRole] = useState<ApiKeyRole>('user');
  const [created, setCreated] = useState<Created | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    const body =
      role === 'portal'
        ? {
            role,
            label: text('label') ?? '',
            portalId: text('portalId'),
            trustClientUserId: data.get('trust') === 'on',
          }
        : {
            role,
            label: text('label') ?? '',
            userId: text('userId'),
            externalId: text('externalId'),
            displayName: text('displayName'),
          };
    setBusy(true);
    setProblem(null);
    setCreated(null);
    setCopied(false);
    const answer = await callConsole<CreatedApiKeyJson>('/keys/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.ok) {
      setCreated({ key: answer.data.key, label: answer.data.apiKey.label, role: answer.data.apiKey.role });
      router.refresh();
    } else setProblem(answer.message);
    setBusy(false);
  }

  async function copy(key: string) {
    await navigator.clipboard.writeText(key).then(
      () => setCopied(true),
      () => setProblem('Copying failed: select the key and copy it by hand'),
    );
  }

  return (
    <section aria-labelledby="create-key-heading" className="card">
      <h2 id="create-key-heading">Create a key</h2>
      <form onSubmit={submit} className="filters" aria-label="Create a key">
        <div className="field">
          <label htmlFor="key-role">Role</label>
          <select
            id="key-role"
            name="role"
            value={role}
            onChange={(event) => setRole(event.target.value as ApiKeyRole)}
          >
            {roles.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="key-label">Label</label>
          <input id="key-label" name="label" required maxLength={200} />
        </div>
        {role === 'portal' ? (
          <>
            <div className="field">
              <label htmlFor="key-portal">Portal id</label>
              <input id="key-portal" name="portalId" required maxLength={200} spellCheck={false} />
            </div>
            <div className="field checkbox">
              <input id="key-trust" name="trust" type="checkbox" />
              <label htmlFor="key-trust">Trust the end-user ids it sends</label>
            </div>
          </>
        ) : (
          <>
            <div className="field">
              <label htmlFor="key-external">External id (a local user, created if new)</label>
              <input id="key-external" name="externalId" maxLength={256} spellCheck={false} />
            </div>
            <div className="field">
              <label htmlFor="key-user">…or an existing user id</label>
              <input id="key-user" name="userId" maxLength={64} spellCheck={false} />
            </div>
            <div className="field">
              <label htmlFor="key-name">Display name (new users)</label>
              <input id="key-name" name="displayName" maxLength={200} />
            </div>
          </>
        )}
        <div className="field actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
      {problem !== null && (
        <p role="alert" className="alert">
          {problem}
        </p>
      )}
      {created !== null && (
        <div className="notice new-key" role="status">
          <p>
            New {created.role} key “{visibleText(created.label)}”. <strong>It is shown this once:</strong>{' '}
            copy it now; it cannot be shown again.
          </p>
          <p className="key-row">
            <code aria-label="New API key" className="mono">
              {created.key}
            </code>
            <button type="button" onClick={() => void copy(created.key)}>
              {copied ? 'Copied' : 'Copy key'}
            </button>
          </p>
        </div>
      )}
    </section>
  );
}
