'use client';

import type { RebuildAcceptedJson } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { callConsole } from '../../console-call';
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
    const answer = await callConsole<RebuildAcceptedJson>('/sandbox/rebuild', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ force }),
    });
    if (answer.ok) setBuildId(answer.data.buildId);
    else setProblem(answer.message);
    setStarting(false);
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
