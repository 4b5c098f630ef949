'use client';

import { useState } from 'react';
import { visibleText } from '../../visible-text';

/** Revoking asks first: a second, explicit button submits the form (a plain POST, no script needed after). */
export function RevokeKeyButton({ keyId, label }: { keyId: string; label: string }) {
  const [confirming, setConfirming] = useState(false);
  // The label names the key to revoke: hidden direction marks must not make it read as another one.
  const shownLabel = visibleText(label);
  if (!confirming)
    return (
      <button
        type="button"
        className="secondary"
        onClick={() => setConfirming(true)}
        aria-label={`Revoke ${shownLabel}`}
      >
        Revoke
      </button>
    );
  return (
    <form method="post" action="/keys/revoke" className="confirm-row">
      <input type="hidden" name="keyId" value={keyId} />
      <span>Revoke “{shownLabel}”? Its next request is refused.</span>
      <button type="submit" className="danger">
        Yes, revoke
      </button>
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </form>
  );
}
