import type { ApiKeyJson } from '@agentdesk/api-contract';
import { formatDateTime } from '../../transcript';
import { visibleText } from '../../visible-text';

/** The keys a person holds (revoked ones too), newest first; revoking is on the keys page. */
export function PersonKeys({ keys }: { keys: readonly ApiKeyJson[] }) {
  if (keys.length === 0) return <p className="empty">They hold no API key.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Their API keys</caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Role</th>
            <th scope="col">Prefix</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
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
              <td data-label="Created">
                <time dateTime={key.createdAt}>{formatDateTime(key.createdAt)}</time>
              </td>
              <td data-label="Last used">
                {key.lastUsedAt === null ? 'never' : formatDateTime(key.lastUsedAt)}
              </td>
              <td data-label="State">
                {key.revokedAt === null ? 'active' : `revoked ${formatDateTime(key.revokedAt)}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
