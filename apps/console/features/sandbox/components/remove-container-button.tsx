'use client';

import { refusalMessageOf } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';

/** Remove one container, after a confirmation in place (a session's sandbox returns on its next use). */
export function RemoveContainerButton({ containerId, name }: { containerId: string; name: string }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Until React has hydrated, a click would do nothing: the controls wait for it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function remove(): Promise<void> {
    setBusy(true);
    setProblem(null);
    try {
      const response = await fetch(`/sandbox/containers/${encodeURIComponent(containerId)}`, {
        method: 'DELETE',
        headers: { accept: 'application/json' },
      });
      if (response.ok) {
        setConfirming(false);
        router.refresh();
      } else setProblem(refusalMessageOf(response.status, await response.json().catch(() => undefined)));
    } catch {
      setProblem('The console cannot be reached; try again in a moment.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="remove-container">
      {confirming ? (
        <span role="group" aria-label={`Confirm removing ${name}`}>
          <button type="button" className="danger" onClick={() => void remove()} disabled={busy}>
            {busy ? 'Removing…' : `Confirm removal of ${name}`}
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="secondary"
          onClick={() => setConfirming(true)}
          disabled={!hydrated}
          aria-label={`Remove ${name}`}
        >
          Remove
        </button>
      )}
      {problem !== null && (
        <p role="alert" className="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
