import { formatDateTime } from '../../transcript';
import { PrincipalLabel, PersonLink } from '../../people';
import { SortableHeader } from '../../url-state';
import { visibleText } from '../../visible-text';
import { auditHref, auditSorting, type AuditFilters } from '../audit-filters';
import type { AuditEntry } from '../server/list-audit';

/** The tail of an id: UUIDv7 ids made close together share their (time) head, never their tail. */
function shortId(id: string): string {
  return `…${visibleText(id.slice(-8))}`;
}

/** Who acted, when it was not a user: a portal by its name, the host, or nobody recognised (a failed sign-in). */
function actorKindText(entry: AuditEntry): string | null {
  if (entry.actorKind === 'user') return null;
  return entry.actorKind === 'unauthenticated' ? 'not signed in' : entry.actorKind;
}

/** What a change aimed at: its kind and, when known, the tail of its id. */
function targetText(target: AuditEntry['target']): string {
  if (target === null) return '—';
  const kind = visibleText(target.kind);
  return target.id === null ? kind : `${kind} ${shortId(target.id)}`;
}

/** What a listing showed, what a change did, or why an attempt was refused. */
function detailsText(details: AuditEntry['details']): string {
  if (details === null) return '';
  return JSON.stringify(details);
}

/** Audit records in the URL's order (newest first by default); ids link to the same log filtered by them. */
export function AuditTable({ entries, filters }: { entries: readonly AuditEntry[]; filters: AuditFilters }) {
  if (entries.length === 0) return <p className="empty">No audit record matches these filters.</p>;
  const sorting = auditSorting(filters);
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Audit records</caption>
        <thead>
          <tr>
            <SortableHeader field="at" label="When" sorting={sorting} />
            <th scope="col">Actor</th>
            <SortableHeader field="action" label="Action" sorting={sorting} firstDirection="asc" />
            <th scope="col">Outcome</th>
            <th scope="col">Target</th>
            <th scope="col">Target user</th>
            <th scope="col">Session</th>
            <th scope="col">Reason</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td data-label="When">
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              </td>
              <td data-label="Actor">
                {entry.actorKind === 'user' ? (
                  <PersonLink id={entry.actorPrincipalId} name={entry.actorName} />
                ) : (
                  <PrincipalLabel
                    id={entry.actorPrincipalId}
                    kind={actorKindText(entry) ?? entry.actorKind}
                  />
                )}{' '}
                <a
                  href={auditHref(filters, { actor: entry.actorPrincipalId, cursor: undefined })}
                  title={`Only the records of ${visibleText(entry.actorPrincipalId)}`}
                  className="muted"
                >
                  only these
                </a>
                {entry.wayIn !== null && <div className="muted">via {visibleText(entry.wayIn)}</div>}
              </td>
              <td className="mono" data-label="Action">
                <a href={auditHref(filters, { action: entry.action, cursor: undefined })}>{entry.action}</a>
              </td>
              <td data-label="Outcome">
                <a href={auditHref(filters, { outcome: entry.outcome, cursor: undefined })}>
                  {entry.outcome}
                </a>
              </td>
              <td
                className="mono"
                data-label="Target"
                title={entry.target?.id ? visibleText(entry.target.id) : undefined}
              >
                {targetText(entry.target)}
              </td>
              <td data-label="Target user">
                {entry.targetUserId === null ? (
                  '—'
                ) : (
                  <>
                    <PersonLink id={entry.targetUserId} name={entry.targetUserName} />{' '}
                    <a
                      href={auditHref(filters, { target: entry.targetUserId, cursor: undefined })}
                      title={`Only the records about ${visibleText(entry.targetUserId)}`}
                      className="muted"
                    >
                      only these
                    </a>
                  </>
                )}
              </td>
              <td className="mono" data-label="Session">
                {entry.sessionId === null ? (
                  '—'
                ) : (
                  <a href={`/sessions/${entry.sessionId}`}>{shortId(entry.sessionId)}</a>
                )}
              </td>
              <td data-label="Reason">{entry.reason === null ? '—' : visibleText(entry.reason)}</td>
              <td className="mono details-cell" data-label="Details">
                {detailsText(entry.details)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
