import type { ContainerJson } from '@agentdesk/api-contract';
import { formatDateTime } from '../../transcript';
import { formatAge, shortImageId } from './format-sandbox';
import { RemoveContainerButton } from './remove-container-button';

/** What a stale container (on an image older than the tag's current one) means for its role. */
export function staleExplanation(role: ContainerJson['role']): string {
  switch (role) {
    case 'session':
      return 'Runs an old image; replaced at its next idle point (between tool calls), /workspace carried over.';
    case 'pool':
      return 'Runs an old image; the warm pool replaces it.';
    case 'pin':
    case 'unknown':
      return 'Runs an old image.';
  }
}

/**
 * This installation's containers (sessions, warm pool, pins); admins may remove one. The Remove
 * control stays reachable at every width: long ids wrap, the actions column sticks to the right
 * edge of the scrolling table, and on a phone each row stacks as a labelled card (`data-label`).
 */
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
      <table className="containers-table stack-on-phone">
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
            {canManage && (
              <th scope="col" className="actions-cell">
                Actions
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {containers.map((container) => (
            <tr key={container.id}>
              <td className="mono wrap-anywhere" data-label="Container">
                {container.name}
              </td>
              <td data-label="Role">{container.role}</td>
              <td data-label="Session">
                {container.sessionId === null ? (
                  '—'
                ) : (
                  <a href={`/sessions/${container.sessionId}`} className="mono">
                    {container.sessionId.slice(0, 8)}…
                  </a>
                )}
              </td>
              <td className="mono wrap-anywhere" data-label="Owner">
                {container.ownerUserId ?? '—'}
              </td>
              {container.stale ? (
                // One element in the cell: on a phone each cell is a grid of its label and its content.
                <td className="wrap-anywhere" data-label="State">
                  <div>
                    {container.state} <span className="badge badge-warn">stale</span>
                    <div className="muted">{staleExplanation(container.role)}</div>
                  </div>
                </td>
              ) : (
                <td data-label="State">{container.state}</td>
              )}
              <td className="mono" title={container.imageId} data-label="Image">
                {shortImageId(container.imageId)}
              </td>
              <td className="number" data-label="Age">
                {formatAge(container.ageSeconds)}
              </td>
              <td data-label="Last used">
                {container.lastUsedAt === null ? '—' : formatDateTime(container.lastUsedAt)}
              </td>
              {canManage && (
                <td className="actions-cell" data-label="Actions">
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
