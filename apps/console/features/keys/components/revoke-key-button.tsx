'use client';

import { useState } from 'react';

/** Revoking asks first: a second, explicit button submits the form (a plain POST, no script needed after). */
export function RevokeKeyButton({ keyId, label }: { keyId: string; label: string }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button
        type="button"
        className="secondary"
        onClick={() => setConfirming(true)}
        aria-label={`Revoke ${label}`}
      >
        Revoke
      </button>
    );
  return (
    <form method="post" action="/keys/revoke" className="confirm-row">
      <input type="hidden" name="keyId" value={keyId} />
      <span>Revoke “{label}”? Its next request is refused.</span>
      <button type="submit" className="danger">
        Yes, revoke
      </button>
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </form>
  );
}
