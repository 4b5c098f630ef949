import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageLabels, type BuildEvent, type SandboxService } from '../src/index';
import { dockerCli } from './docker-cli';
import { removeEverything, testBaseImage, testEngine, testService } from './test-engine';

// One tag for the whole file: each case starts from what the previous left, like an operator's
// engine over time. Cases run in order (prunes hit the whole engine).
const name = 'image';
const services: SandboxService[] = [];
function service(config: Parameters<typeof testService>[1] = {}): SandboxService {
  const created = testService(name, config);
  services.push(created);
  return created;
}
const engine = testEngine();

afterAll(async () => {
  for (const created of services) await created.close({ removePool: true });
  await removeEverything(service());
});

async function pinImageId(pinName: string): Promise<string | undefined> {
  const pin = await engine.inspectContainer(pinName);
  return pin?.State.Running ? pin.Image : undefined;
}

describe('ensureSandboxImage', () => {
  beforeAll(async () => {
    await engine.removeImage('agentdesk-test-image:latest', true);
  });

  it('builds a missing image with version, content-hash and build-time labels, then pins it', async () => {
    const sandbox = service();
    const result = await sandbox.ensureSandboxImage();
    expect(result.status).toBe('built');
    const image = await engine.inspectImage(sandbox.config.tag);
    expect(image?.Id).toBe(result.imageId);
    expect(image?.Config.Labels).toMatchObject({
      [imageLabels.version]: '1.0.0-test',
      [imageLabels.contentHash]: result.contentHash,
      [imageLabels.baseImage]: testBaseImage,
    });
    expect(Date.parse(image!.Config.Labels[imageLabels.builtAt]!)).not.toBeNaN();
    expect(result.pin).toMatchObject({ outcome: 'pinned', imageId: result.imageId });
    expect(result.basePin.outcome).toBe('pinned');
    expect(await pinImageId(sandbox.config.pinName)).toBe(result.imageId);
  });

  it('reports a current image as current without building, and keeps the pin as it is', async () => {
    const sandbox = service();
    const handle = sandbox.rebuild({ force: false });
    const outcome = await handle.done;
    expect(outcome).toMatchObject({ status: 'current', pin: { outcome: 'already-pinned' } });
    expect(handle.events().some((event) => event.type === 'build-start')).toBe(false);
  });

  it('coalesces 10 concurrent ensures into one build', async () => {
    const sandbox = service({ agentdeskVersion: '1.0.1-test' });
    const results = await Promise.all(Array.from({ length: 10 }, () => sandbox.ensureSandboxImage()));
    expect(new Set(results.map((result) => result.buildId)).size).toBe(1);
    expect(results.every((result) => result.status === 'built')).toBe(true);
    expect(sandbox.builds()).toHaveLength(1);
    const starts = sandbox
      .build(results[0]!.buildId)!
      .events()
      .filter((event) => event.type === 'build-start');
    expect(starts).toHaveLength(1);
  });

  it('rebuilds when the version label differs: the tag moves, the pin follows, a prune drops only the old image', async () => {
    const before = await engine.inspectImage('agentdesk-test-image:latest');
    const sandbox = service({ agentdeskVersion: '2.0.0-test' });
    const handle = sandbox.rebuild({ force: false });
    const seen: BuildEvent[] = [];
    const result = await handle.done;
    handle.subscribe((event) => seen.push(event)); // a late viewer gets the whole log
    expect(result.status).toBe('built');
    if (result.status !== 'built') return;
    expect(result.previousImageId).toBe(before!.Id);
    expect(result.imageId).not.toBe(before!.Id);
    expect(seen[0]).toMatchObject({ type: 'build-start', reason: expect.stringContaining('1.0.1-test') });
    expect(seen.some((event) => event.type === 'step')).toBe(true);
    expect(seen.at(-1)).toMatchObject({ type: 'build-end', status: 'built', imageId: result.imageId });
    expect(result.pin).toMatchObject({ outcome: 'pinned', imageId: result.imageId });
    expect(await pinImageId(sandbox.config.pinName)).toBe(result.imageId);

    await dockerCli('image', 'prune', '-af');
    expect(await engine.inspectImage(before!.Id)).toBeUndefined();
    expect((await engine.inspectImage(sandbox.config.tag))?.Id).toBe(result.imageId);
  });

  it('keeps the previous image and tag working when a build step fails, and reports the engine text', async () => {
    const good = service({ agentdeskVersion: '2.0.0-test' });
    const goodImageId = (await good.ensureSandboxImage()).imageId;
    const broken = service({
      agentdeskVersion: '2.0.0-test',
      extraBuildSteps: ['RUN echo about to fail && exit 3'],
    });
    const handle = broken.rebuild({ force: false });
    const outcome = await handle.done;
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error.code).toBe('build-failed');
    expect(outcome.error.message).toContain('returned a non-zero code: 3');
    expect(
      handle.events().some((event) => event.type === 'line' && event.text.includes('about to fail')),
    ).toBe(true);
    expect(handle.record()).toMatchObject({ status: 'failed', imageIdBefore: goodImageId });
    await expect(broken.ensureSandboxImage()).rejects.toMatchObject({ code: 'build-failed' });

    expect((await engine.inspectImage(good.config.tag))?.Id).toBe(goodImageId);
    expect(await pinImageId(good.config.pinName)).toBe(goodImageId);
    const result = await good.forSession('after-broken-build').exec({ command: 'echo still works' });
    expect(result.stdout.text).toBe('still works\n');
    await good.removeSession('after-broken-build');
  });
});

describe('prunes', () => {
  it('docker system prune -af: the next sandbox still starts and the next rebuild still succeeds', async () => {
    const sandbox = service({ agentdeskVersion: '2.0.0-test' });
    const { imageId } = await sandbox.ensureSandboxImage();
    await dockerCli('system', 'prune', '-af');
    await dockerCli('image', 'prune', '-af');
    expect((await engine.inspectImage(sandbox.config.tag))?.Id).toBe(imageId);
    expect(await engine.inspectImage(testBaseImage)).toBeDefined(); // the base pin kept it
    const result = await sandbox.forSession('after-prune').exec({ command: 'echo up' });
    expect(result.stdout.text).toBe('up\n');
    await sandbox.removeSession('after-prune');

    const rebuilt = await sandbox.ensureSandboxImage({ force: true });
    expect(rebuilt.status).toBe('built');
    expect(rebuilt.imageId).not.toBe(imageId);
  });

  it('restores the base image before a build when a prune removed it anyway (base pin removed by hand)', async () => {
    const sandbox = service({ agentdeskVersion: '3.0.0-test' });
    await engine.removeContainer(sandbox.config.basePinName);
    // Every other holder of the base is gone too: only this file's services exist on the engine.
    for (const container of await dockerCli('ps', '-aq', '--filter', `ancestor=${testBaseImage}`).then(
      (out) => out.split('\n').filter(Boolean),
    )) {
      await engine.removeContainer(container);
    }
    await dockerCli('system', 'prune', '-af');
    expect(await engine.inspectImage(testBaseImage)).toBeUndefined();

    const handle = sandbox.rebuild({ force: false });
    const outcome = await handle.done;
    expect(outcome.status).toBe('built');
    expect(
      handle.events().some((event) => event.type === 'line' && event.text.includes('missing: restoring')),
    ).toBe(true);
    expect(await engine.inspectImage(testBaseImage)).toBeDefined();
  });
});

describe('ensureImagePin', () => {
  it('re-creates a pin removed by hand, and one stopped through the engine, on the next ensure', async () => {
    const sandbox = service({ agentdeskVersion: '3.0.0-test' });
    const { imageId } = await sandbox.ensureSandboxImage();

    await dockerCli('rm', '-f', sandbox.config.pinName);
    expect(await sandbox.ensureSandboxImage()).toMatchObject({
      status: 'current',
      pin: { outcome: 'pinned', imageId },
    });

    await dockerCli('stop', '-t', '0', sandbox.config.pinName);
    // `restart: always` does not undo a stop, and no wait is needed to see it: the engine decides
    // whether to restart a container as it handles the exit, before `docker stop` returns, and
    // records the decision in State (Restarting true, Running kept true, when it will restart). A stop
    // by hand cancels the policy, so right after the stop the pin is exited and not restarting.
    const stopped = await engine.inspectContainer(sandbox.config.pinName);
    expect(stopped?.HostConfig.RestartPolicy?.Name).toBe('always');
    expect(stopped?.State).toMatchObject({ Status: 'exited', Running: false, Restarting: false });
    expect(stopped?.RestartCount).toBe(0);
    expect((await sandbox.repin()).outcome).toBe('pinned');
    expect(await pinImageId(sandbox.config.pinName)).toBe(imageId);
    expect((await sandbox.repin()).outcome).toBe('already-pinned');
  });

  it('reports no-image for a missing tag and never throws', async () => {
    const missing = testService('no-such-image');
    expect(await missing.repin()).toMatchObject({ outcome: 'no-image' });
    expect(await missing.engine.inspectContainer(missing.config.pinName)).toBeUndefined();
  });
});
