import type { ContainerJson } from '@agentdesk/api-contract';
import { formatDateTime } from '../../transcript';
import { formatAge, shortImageId } from './format-sandbox';
import { RemoveContainerButton } from './remove-container-button';

/** This installation's containers (sessions, warm pool, pins); admins may remove one. */
export function ContainersTable({
  containers,
  canManage,
}: {
  containers: readonly ContainerJson[];
  canManage: boolean;
}) {
  if (containers.length === 0) return <p className="empty">No sandbox container is running.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Sandbox containers</caption>
        <thead>
          <tr>
            <th scope="col">Container</th>
            <th scope="col">Role</th>
            <th scope="col">Session</th>
            <th scope="col">Owner</th>
            <th scope="col">State</th>
            <th scope="col">Image</th>
            <th scope="col" className="number">
              Age
            </th>
            <th scope="col">Last used</th>
            {canManage && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {containers.map((container) => (
            <tr key={container.id}>
              <td className="mono wrap-anywhere">{container.name}</td>
              <td>{container.role}</td>
              <td>
                {container.sessionId === null ? (
                  '—'
                ) : (
                  <a href={`/sessions/${container.sessionId}`} className="mono">
                    {container.sessionId.slice(0, 8)}…
                  </a>
                )}
              </td>
              <td className="mono">{container.ownerUserId ?? '—'}</td>
              <td>{container.state}</td>
              <td className="mono" title={container.imageId}>
                {shortImageId(container.imageId)}
              </td>
              <td className="number">{formatAge(container.ageSeconds)}</td>
              <td>{container.lastUsedAt === null ? '—' : formatDateTime(container.lastUsedAt)}</td>
              {canManage && (
                <td>
                  <RemoveContainerButton containerId={container.id} name={container.name} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
