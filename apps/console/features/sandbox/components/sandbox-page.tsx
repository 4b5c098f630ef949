import { can } from '@agentdesk/authz';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import type { SearchParams } from '../../url-state';
import { sandboxAvailability } from '../sandbox-availability';
import { sandboxQuery } from '../sandbox-query';
import { readSandbox } from '../server/read-sandbox';
import { BuildHistory } from './build-history';
import { ContainersTable } from './containers-table';
import { ImageStatusCard } from './image-status-card';
import { RebuildPanel } from './rebuild-panel';
import { RepinButton } from './repin-button';

/** The API's message ends a sentence of its own (or not): end it exactly once before ours follows. */
function withFinalStop(message: string): string {
  return /[.!?]$/.test(message.trimEnd()) ? message.trimEnd() : `${message.trimEnd()}.`;
}

/**
 * The sandbox image, its builds and containers. Each part shows the API's own message when it cannot
 * be read (an unreachable engine is a 503); a server without a sandbox says so once.
 */
export async function SandboxPage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  if (!mayRead)
    return (
      <ConsoleShell signedIn={signedIn} current="/sandbox">
        <h1>Sandbox</h1>
        <MissingScopeNotice access={access} readWhat="see the sandbox" />
      </ConsoleShell>
    );
  const canManage = can(signedIn.principal, 'sandbox:manage');
  const { image, builds, containers } = await readSandbox(signedIn.credential);
  const availability = sandboxAvailability(image.ok ? undefined : image.error);
  const pickedBuild = sandboxQuery.parse(searchParams).filters.build ?? null;
  const followBuildId = pickedBuild ?? (image.ok ? image.value.buildInProgress : null);

  return (
    <ConsoleShell signedIn={signedIn} current="/sandbox">
      <h1>Sandbox</h1>
      <p className="muted">
        The image agent turns run their tools in, its builds, and every session’s container.
        {canManage
          ? ' Rebuilds, re-pins and removals are recorded in the audit log.'
          : ' You can read; only admins change it.'}
      </p>
      {availability.kind === 'disabled' ? (
        <p role="note" className="notice">
          The sandbox is turned off on this API server: {availability.message}
        </p>
      ) : (
        <>
          <div className="sandbox-grid">
            {image.ok ? (
              <div>
                <ImageStatusCard image={image.value} />
                {canManage && <RepinButton />}
              </div>
            ) : (
              <section className="card" aria-labelledby="image-status-heading">
                <h2 id="image-status-heading">Image status</h2>
                {availability.kind === 'engine-unavailable' ? (
                  <p role="alert" className="alert">
                    {withFinalStop(availability.message)} The image, its pins and the containers cannot be
                    read or changed until the Docker engine answers again; the build history below is kept by
                    the API.
                  </p>
                ) : (
                  <ApiProblem error={image.error} />
                )}
              </section>
            )}
            <RebuildPanel
              key={followBuildId ?? 'none'}
              canManage={canManage && image.ok}
              followBuildId={followBuildId}
            />
          </div>
          <section aria-labelledby="build-history-heading">
            <h2 id="build-history-heading">Build history</h2>
            {builds.ok ? <BuildHistory builds={builds.value.items} /> : <ApiProblem error={builds.error} />}
          </section>
          <section aria-labelledby="containers-heading">
            <h2 id="containers-heading">Containers</h2>
            {containers.ok ? (
              <ContainersTable containers={containers.value.items} canManage={canManage} />
            ) : (
              <ApiProblem error={containers.error} />
            )}
          </section>
        </>
      )}
    </ConsoleShell>
  );
}
