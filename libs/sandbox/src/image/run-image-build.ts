import { type SandboxConfig } from '../config/sandbox-config';
import { type EngineClient } from '../engine/engine-client';
import { SandboxError } from '../engine/sandbox-error';
import { buildContextTar, imageLabels, type BuildContext } from './build-context';
import { toBuildEvents } from './build-events';
import { type BuildHandle } from './build-handle';

/** How much of the engine's error text a build failure carries. */
const errorTextLimit = 2000;

/**
 * Streams the rendered context to the engine's (legacy) builder and forwards its log. The engine
 * reports a failing step inside the stream, not as a failed request, so every message is scanned
 * for `{error, errorDetail}`. The legacy builder only moves the tag when the whole build succeeds,
 * so a failure leaves the previous image and tag as they were.
 */
export async function runImageBuild(
  engine: EngineClient,
  config: SandboxConfig,
  context: BuildContext,
  handle: BuildHandle,
): Promise<string> {
  const options = {
    t: config.tag,
    labels: {
      [imageLabels.version]: config.agentdeskVersion,
      [imageLabels.contentHash]: context.contentHash,
      [imageLabels.builtAt]: new Date().toISOString(),
      [imageLabels.baseImage]: config.baseImage,
    },
    // Build steps get no network: nothing reachable anyway, and nothing should be fetched silently.
    networkmode: 'none',
    rm: true,
    forcerm: true,
    nocache: handle.force,
    pull: false,
  };
  const errors: string[] = [];
  let auxImageId: string | undefined;
  for await (const message of engine.buildImage(buildContextTar(context), options)) {
    if (message.aux?.ID) auxImageId = message.aux.ID;
    for (const event of toBuildEvents(message, Date.now())) {
      if (event.type === 'error') errors.push(event.message);
      handle.emit(event);
    }
  }
  if (errors.length > 0) {
    throw new SandboxError(
      'build-failed',
      `sandbox image build failed: ${errors.join('\n').slice(-errorTextLimit)}`,
      {
        details: { engineErrors: errors },
      },
    );
  }
  // The tag is the truth: it names what the build produced (aux.ID is absent on older engines).
  const built = await engine.inspectImage(config.tag);
  if (!built) {
    throw new SandboxError(
      'build-failed',
      `the build reported success but ${config.tag} is not on the engine`,
    );
  }
  if (auxImageId && auxImageId !== built.Id) {
    throw new SandboxError('build-failed', `${config.tag} was moved by someone else during the build`);
  }
  return built.Id;
}
