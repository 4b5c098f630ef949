import type { BuildJson } from '@agentdesk/api-contract';
import { PersonLink, PrincipalLabel } from '../../people';
import { formatDateTime, formatDuration } from '../../transcript';
import { sandboxQuery } from '../sandbox-query';
import { shortImageId } from './format-sandbox';

/** Who asked, whole: the principal, or the session (and its owner) whose sandbox needed the image. */
function whoAskedInFull(build: BuildJson): string | undefined {
  if (build.actor !== null) return build.actor.principalId;
  if (build.session !== null)
    return `session ${build.session.id}, owner ${build.session.ownerUserId ?? 'unknown'}`;
  return undefined;
}

/** Who asked: the person (by name, linking to their page), the session and its owner, or the API itself. */
function WhoAsked({ build }: { build: BuildJson }) {
  if (build.actor !== null) return <PrincipalLabel id={build.actor.principalId} name={build.actor.name} />;
  if (build.session !== null)
    return (
      <>
        <a href={`/sessions/${encodeURIComponent(build.session.id)}`} className="mono">
          Session {build.session.id.slice(0, 8)}…
        </a>
        {build.session.ownerUserId !== null && (
          <>
            {' of '}
            <PersonLink id={build.session.ownerUserId} name={build.session.ownerName} />
          </>
        )}
      </>
    );
  return <>API start-up</>;
}

/** The latest builds, newest first: who, when, result, duration, image ids before and after (a card per build on a phone). */
export function BuildHistory({ builds }: { builds: readonly BuildJson[] }) {
  if (builds.length === 0) return <p className="empty">No build yet.</p>;
  return (
    <div className="table-scroll">
      <table className="stack-on-phone">
        <caption className="visually-hidden">Builds, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Who</th>
            <th scope="col">Result</th>
            <th scope="col" className="number">
              Duration
            </th>
            <th scope="col">Image before → after</th>
            <th scope="col">Log</th>
          </tr>
        </thead>
        <tbody>
          {builds.map((build) => (
            <tr key={build.id}>
              <td data-label="Started">
                <time dateTime={build.startedAt}>{formatDateTime(build.startedAt)}</time>
              </td>
              <td title={whoAskedInFull(build)} data-label="Who">
                <WhoAsked build={build} />
                {build.force && <span className="muted"> (forced)</span>}
              </td>
              <td data-label="Result">
                <span className={`badge badge-build-${build.status}`}>{build.status}</span>
                {build.error !== null && <span className="muted"> {build.error}</span>}
              </td>
              <td className="number" data-label="Duration">
                {build.durationMs === null ? '—' : formatDuration(build.durationMs)}
              </td>
              <td className="mono wrap-anywhere" data-label="Image before → after">
                {shortImageId(build.imageIdBefore)} → {shortImageId(build.imageIdAfter)}
              </td>
              <td data-label="Log">
                <a
                  href={sandboxQuery.href({ build: build.id })}
                  aria-label={`Log of the build started ${formatDateTime(build.startedAt)}`}
                >
                  Show log
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
