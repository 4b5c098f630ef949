'use client';

import type { PinReportJson } from '@agentdesk/api-contract';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { callConsole } from '../../console-call';

const outcomeText: Record<PinReportJson['outcome'], string> = {
  pinned: 'Pinned: the pin container now holds the current image.',
  'already-pinned': 'Already pinned: nothing to do.',
  'no-image': 'No image to pin: rebuild first.',
  failed: 'The re-pin failed.',
};

/** Re-pin: the API ensures the pin container runs on the tag's current image; the status refreshes. */
export function RepinButton() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<PinReportJson | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Until React has hydrated, a click would do nothing: the controls wait for it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function repin(): Promise<void> {
    setBusy(true);
    setProblem(null);
    setReport(null);
    const answer = await callConsole<PinReportJson>('/sandbox/repin', { method: 'POST' });
    if (answer.ok) {
      setReport(answer.data);
      router.refresh();
    } else setProblem(answer.message);
    setBusy(false);
  }

  return (
    <div className="repin">
      <button type="button" className="secondary" onClick={() => void repin()} disabled={busy || !hydrated}>
        {busy ? 'Re-pinning…' : 'Re-pin image'}
      </button>
      {report !== null && (
        <p role="status" className={report.outcome === 'failed' ? 'alert' : 'notice'}>
          {outcomeText[report.outcome]} <span className="mono">{report.pinName}</span>
          {report.imageId !== null && <span className="mono"> → {report.imageId.slice(0, 19)}</span>}
          {report.error !== null && <span> {report.error}</span>}
        </p>
      )}
      {problem !== null && (
        <p role="alert" className="alert">
          The re-pin was refused: {problem}
        </p>
      )}
    </div>
  );
}
