'use client';

import { rebuildAcceptedJsonSchema, refusalMessageOf } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { BuildLogStream } from './build-log-stream';

/**
 * Rebuild (with force) and its live log. `followBuildId` is a build to show at once: one already
 * running, or one picked from the history (its stored log is replayed).
 */
export function RebuildPanel({
  canManage,
  followBuildId,
}: {
  canManage: boolean;
  followBuildId: string | null;
}) {
  const router = useRouter();
  const [force, setForce] = useState(true);
  const [buildId, setBuildId] = useState<string | null>(followBuildId);
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Until React has hydrated, a click would do nothing: the controls wait for it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function rebuild(): Promise<void> {
    setStarting(true);
    setProblem(null);
    try {
      const response = await fetch('/sandbox/rebuild', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ force }),
      });
      const body: unknown = await response.json().catch(() => undefined);
      const accepted = rebuildAcceptedJsonSchema.safeParse(body);
      if (!response.ok || !accepted.success) setProblem(refusalMessageOf(response.status, body));
      else setBuildId(accepted.data.buildId);
    } catch {
      setProblem('The console cannot be reached; try again in a moment.');
    } finally {
      setStarting(false);
    }
  }

  return (
    <section className="card" aria-labelledby="rebuild-heading">
      <h2 id="rebuild-heading">Build</h2>
      {canManage && (
        <div className="rebuild-controls">
          <label className="inline">
            <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} />
            Force (rebuild even when the image is current)
          </label>
          <button type="button" onClick={() => void rebuild()} disabled={starting || !hydrated}>
            {starting ? 'Starting…' : 'Rebuild image'}
          </button>
        </div>
      )}
      {problem !== null && (
        <p role="alert" className="alert">
          The rebuild was refused: {problem}
        </p>
      )}
      {buildId === null ? (
        <p className="muted">No build log open. Pick a build in the history to replay its log.</p>
      ) : (
        <BuildLogStream buildId={buildId} onEnd={() => router.refresh()} />
      )}
    </section>
  );
}
