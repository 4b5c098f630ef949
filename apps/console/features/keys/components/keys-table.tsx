import type { ApiKeyJson } from '@agentdesk/api-contract';
import { formatDateTime } from '../../transcript';
import { visibleText } from '../../visible-text';
import { RevokeKeyButton } from './revoke-key-button';

/** The keys, newest first; the revoke control only for people who may revoke. */
export function KeysTable({ keys, canRevoke }: { keys: readonly ApiKeyJson[]; canRevoke: boolean }) {
  if (keys.length === 0) return <p className="empty">No key here yet.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">API keys, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Role</th>
            <th scope="col">Prefix</th>
            <th scope="col">Holder</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
            {canRevoke && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td>{visibleText(key.label)}</td>
              <td>
                <span className={`role role-${key.role}`}>{key.role}</span>
              </td>
              <td className="mono">{key.prefix}</td>
              <td className="mono">
                {key.portalId !== null && `portal ${visibleText(key.portalId)}`}
                {key.portalId !== null && key.ownerUserId !== null && ' · '}
                {key.ownerUserId !== null && (
                  <a
                    href={`/sessions?user=${encodeURIComponent(key.ownerUserId)}`}
                    title={`Sessions of ${visibleText(key.ownerUserId)}`}
                  >
                    …{visibleText(key.ownerUserId.slice(-8))}
                  </a>
                )}
              </td>
              <td>
                <time dateTime={key.createdAt}>{formatDateTime(key.createdAt)}</time>
              </td>
              <td>{key.lastUsedAt === null ? 'never' : formatDateTime(key.lastUsedAt)}</td>
              <td>{key.revokedAt === null ? 'active' : `revoked ${formatDateTime(key.revokedAt)}`}</td>
              {canRevoke && (
                <td>{key.revokedAt === null && <RevokeKeyButton keyId={key.id} label={key.label} />}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
