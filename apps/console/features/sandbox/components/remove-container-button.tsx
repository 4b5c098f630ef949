'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { callConsole } from '../../console-call';

/** Remove one container, after a confirmation in place (a session's sandbox returns on its next use). */
export function RemoveContainerButton({ containerId, name }: { containerId: string; name: string }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Until React has hydrated, a click would do nothing: the controls wait for it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Focus follows the control that replaced the one pressed (keyboard users keep their place), and
  // the confirmation is scrolled fully into view even when Remove sat at the edge of the screen.
  const confirmButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  useEffect(() => {
    const confirm = confirmButton.current;
    if (confirming && confirm !== null) {
      confirm.focus();
      // Focus alone may leave it cut at the screen's edge: bring it to the middle when it is.
      const box = confirm.getBoundingClientRect();
      if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight || box.right > window.innerWidth)
        confirm.scrollIntoView({ block: 'center', inline: 'nearest' });
    } else if (wasConfirming.current) removeButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  async function remove(): Promise<void> {
    setBusy(true);
    setProblem(null);
    const answer = await callConsole<undefined>(`/sandbox/containers/${encodeURIComponent(containerId)}`, {
      method: 'DELETE',
    });
    if (answer.ok) {
      setConfirming(false);
      router.refresh();
    } else setProblem(answer.message);
    setBusy(false);
  }

  return (
    <div className="remove-container">
      {confirming ? (
        <span role="group" aria-label={`Confirm removing ${name}`}>
          <button
            ref={confirmButton}
            type="button"
            className="danger"
            onClick={() => void remove()}
            disabled={busy}
          >
            {busy ? 'Removing…' : `Confirm removal of ${name}`}
          </button>{' '}
          <button type="button" className="secondary" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          ref={removeButton}
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
