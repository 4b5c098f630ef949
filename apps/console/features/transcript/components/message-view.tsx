import { formatDateTime } from '../format';
import type { TranscriptMessage } from '../transcript-model';
import { CompressionEventCard } from './compression-event-card';
import { LongText } from './long-text';
import { RawJson } from './raw-json';
import { ToolCallCard } from './tool-call-card';
import { UsageLine } from './usage-line';

const roleNames = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool result' } as const;

/** One message: who said it, the text, the tool calls as cards, compression and failure, raw JSON on demand. */
export function MessageView({
  entry,
  sessionId,
  highlighted = false,
}: {
  entry: TranscriptMessage;
  sessionId: string;
  /** The message a link pointed at. */
  highlighted?: boolean;
}) {
  const { message } = entry;
  return (
    <article
      className={`message message-${message.role} status-${message.status}${highlighted ? ' message-highlighted' : ''}`}
      id={`message-${message.id}`}
      aria-label={`${roleNames[message.role]} message ${message.seq}`}
    >
      <header>
        <span className="speaker">{roleNames[message.role]}</span>
        {message.model !== null && <span className="mono muted">{message.model}</span>}
        <time className="muted" dateTime={message.createdAt}>
          {formatDateTime(message.createdAt)}
        </time>
        {message.status !== 'complete' && (
          <span className={`badge badge-${message.status}`}>{message.status}</span>
        )}
        {message.usage !== null && <UsageLine usage={message.usage} />}
        <a
          className="message-link"
          href={`#message-${message.id}`}
          aria-label={`Link to message ${message.seq}`}
        >
          #
        </a>
      </header>
      {entry.compressionEvents.map((event) => (
        <CompressionEventCard key={event.at + event.tokensBefore} event={event} />
      ))}
      {entry.unreadableCompressionEvents.length > 0 && (
        <RawJson
          value={entry.unreadableCompressionEvents}
          label="Compression events this console cannot read"
        />
      )}
      {entry.text !== '' &&
        (message.role === 'tool' ? (
          <LongText text={entry.text} label="result" />
        ) : (
          <div className="bubble">{entry.text}</div>
        ))}
      {entry.otherParts.length > 0 && <RawJson value={entry.otherParts} label="Other content parts" />}
      {entry.error !== undefined && (
        <div className="failure" role="note" aria-label="Error">
          <strong>Failed: {entry.error.code}</strong> — {entry.error.message}
          {entry.error.provider !== undefined && (
            <span className="muted">
              {' '}
              (provider {entry.error.provider}
              {entry.error.status !== undefined && <>, status {entry.error.status}</>}
              {entry.error.requestId !== undefined && <>, request {entry.error.requestId}</>})
            </span>
          )}
        </div>
      )}
      {entry.toolExchanges.map((exchange) => (
        <ToolCallCard key={exchange.call.id} exchange={exchange} sessionId={sessionId} />
      ))}
      {entry.unreadableToolCalls.length > 0 && (
        <RawJson value={entry.unreadableToolCalls} label="Tool calls this console cannot read" />
      )}
      <RawJson value={message} label="Raw JSON of this message" />
    </article>
  );
}
