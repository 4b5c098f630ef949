'use client';

import type { PageJson } from '@agentdesk/api-contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranscript } from '../hooks/use-transcript';
import { buildTurns, transcriptTotals, type CheckedMessage } from '../transcript-model';
import {
  estimateRowHeight,
  rowKeysByMessageId,
  transcriptRows,
  type TranscriptRow,
} from '../transcript-rows';
import { MessageView } from './message-view';
import type { CostFields } from '../../cost';
import { TotalsPanel } from './totals-panel';
import { TurnHeader } from './turn-view';
import { VirtualList } from './virtual-list';

const MESSAGE_ANCHOR = /^#message-(.+)$/;

/** The message id a `#message-<id>` address points at. */
function linkedMessageId(): string | undefined {
  const match = MESSAGE_ANCHOR.exec(window.location.hash);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/**
 * The transcript as a conversation, in a virtualized list so 2,000 messages stay smooth; the rest of
 * the transcript streams in page by page, a running turn updates live, and `#message-<id>` scrolls to
 * (and highlights) that message once it is loaded.
 */
export function TranscriptView({
  sessionId,
  firstPage,
  cost,
}: {
  sessionId: string;
  firstPage: PageJson<CheckedMessage>;
  /** The session's cost when the page was read. */
  cost?: CostFields;
}) {
  const { messages, complete, live, feed, error } = useTranscript(sessionId, firstPage);
  const turns = useMemo(() => buildTurns(messages), [messages]);
  const totals = useMemo(() => transcriptTotals(turns), [turns]);
  const rows = useMemo(() => transcriptRows(turns), [turns]);
  const rowKeys = useMemo(() => rowKeysByMessageId(rows), [rows]);

  const [linked, setLinked] = useState<string | undefined>();
  const [scrollTarget, setScrollTarget] = useState<{ key: string } | null>(null);
  useEffect(() => {
    const follow = () => setLinked(linkedMessageId());
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  // Scroll once the linked message is loaded (it may be on a page still on its way).
  const linkedRowKey = linked === undefined ? undefined : rowKeys.get(linked);
  useEffect(() => {
    if (linkedRowKey !== undefined) setScrollTarget({ key: linkedRowKey });
  }, [linkedRowKey, linked]);

  const renderRow = useCallback(
    (row: TranscriptRow) =>
      row.kind === 'turn' ? (
        <TurnHeader turn={row.turn} />
      ) : (
        <MessageView entry={row.entry} sessionId={sessionId} highlighted={row.key === linkedRowKey} />
      ),
    [sessionId, linkedRowKey],
  );
  const rowKey = useCallback((row: TranscriptRow) => row.key, []);

  return (
    <>
      <TotalsPanel totals={totals} complete={complete} cost={cost} />
      <p className="transcript-progress muted" role="status">
        {complete
          ? `${messages.length.toLocaleString('en-US')} messages`
          : `Loading the transcript: ${messages.length.toLocaleString('en-US')} messages so far…`}
        {/* A polite status: it changes when a turn starts or ends, never with each streamed word. */}
        {live &&
          (feed === 'open'
            ? ' · A turn is running: this page shows it as it happens.'
            : ' · A turn is running: this page follows it live.')}
      </p>
      {linked !== undefined && complete && linkedRowKey === undefined && (
        <p role="alert" className="alert">
          The linked message is not in this transcript.
        </p>
      )}
      {error !== undefined && (
        <p role="alert" className="alert">
          The rest of the transcript could not be read: {error}
        </p>
      )}
      {rows.length === 0 ? (
        <p className="empty">This session has no messages yet.</p>
      ) : (
        <VirtualList
          rows={rows}
          rowKey={rowKey}
          estimateHeight={estimateRowHeight}
          renderRow={renderRow}
          scrollTarget={scrollTarget}
        />
      )}
    </>
  );
}
