import type { ApiKeyJson, ApiKeySortField } from '@agentdesk/api-contract';
import { PersonLink } from '../../people';
import { formatDateTime } from '../../transcript';
import { SortableHeader, type TableSorting } from '../../url-state';
import { visibleText } from '../../visible-text';
import { RevokeKeyButton } from './revoke-key-button';

/** The keys in the page's order; the revoke control only for people who may revoke. */
export function KeysTable({
  keys,
  canRevoke,
  sorting,
}: {
  keys: readonly ApiKeyJson[];
  canRevoke: boolean;
  sorting: TableSorting<ApiKeySortField>;
}) {
  if (keys.length === 0) return <p className="empty">No key here yet.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">API keys</caption>
        <thead>
          <tr>
            <SortableHeader field="label" label="Label" sorting={sorting} firstDirection="asc" />
            <th scope="col">Role</th>
            <th scope="col">Prefix</th>
            <th scope="col">Holder</th>
            <SortableHeader field="created" label="Created" sorting={sorting} />
            <SortableHeader field="lastUsed" label="Last used" sorting={sorting} />
            <th scope="col">State</th>
            {canRevoke && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <td data-label="Label">{visibleText(key.label)}</td>
              <td data-label="Role">
                <span className={`role role-${key.role}`}>{key.role}</span>
              </td>
              <td className="mono" data-label="Prefix">
                {key.prefix}
              </td>
              <td data-label="Holder">
                {key.portalId !== null && <span className="mono">portal {visibleText(key.portalId)}</span>}
                {key.portalId !== null && key.ownerUserId !== null && ' · '}
                {key.ownerUserId !== null && <PersonLink id={key.ownerUserId} name={key.ownerName} />}
              </td>
              <td data-label="Created">
                <time dateTime={key.createdAt}>{formatDateTime(key.createdAt)}</time>
              </td>
              <td data-label="Last used">
                {key.lastUsedAt === null ? 'never' : formatDateTime(key.lastUsedAt)}
              </td>
              <td data-label="State">
                {key.revokedAt === null ? 'active' : `revoked ${formatDateTime(key.revokedAt)}`}
              </td>
              {canRevoke && (
                <td data-label="Action">
                  {key.revokedAt === null && <RevokeKeyButton keyId={key.id} label={key.label} />}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
