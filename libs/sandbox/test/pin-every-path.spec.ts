import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSandboxConfig, silentLogger, type BuildCause, type BuildHandle } from '../src/index';
import { PinKeeper } from '../src/image/pin-keeper';
import { dockerCli } from './docker-cli';
import { removeEverything, testBaseImage, testEngine, testService } from './test-engine';
import { waitFor } from './wait-for';

// One image and one pair of pins for the file; each case does to them what an operator might do
// behind AgentDesk's back, then takes the path that must put them back. Cases run in order.
const name = 'pins';
const engine = testEngine();
const cold = testService(name);
const warm = testService(name, { warmPoolSize: 1 });
const { pinName, basePinName, tag } = cold.config;

beforeAll(() => cold.ensureSandboxImage());
afterAll(async () => {
  await warm.close({ removePool: true });
  await removeEverything(cold);
});

/** Both pins run, each on the id its reference names right now. */
async function expectBothPinned(): Promise<void> {
  const [image, base, pin, basePin] = await Promise.all([
    engine.inspectImage(tag),
    engine.inspectImage(testBaseImage),
    engine.inspectContainer(pinName),
    engine.inspectContainer(basePinName),
  ]);
  expect({ running: pin?.State.Running, imageId: pin?.Image }).toEqual({ running: true, imageId: image?.Id });
  expect({ running: basePin?.State.Running, imageId: basePin?.Image }).toEqual({
    running: true,
    imageId: base?.Id,
  });
}

async function stopPin(pin: string): Promise<void> {
  await dockerCli('stop', '-t', '0', pin);
  // A stop through the engine counts as by hand: `restart: always` leaves it stopped.
  expect((await engine.inspectContainer(pin))?.State.Running).toBe(false);
}

describe('the pins on the session path', () => {
  it('re-creates both pins removed by hand once a new session’s sandbox is created (cold)', async () => {
    await dockerCli('rm', '-f', pinName, basePinName);
    expect((await cold.forSession('cold-after-rm').exec({ command: 'echo ok' })).stdout.text).toBe('ok\n');
    await expectBothPinned();
  });

  it('restarts both pins stopped through the engine once a new session’s sandbox comes from the warm pool', async () => {
    await warm.fillWarmPool();
    const pooled = (await warm.listContainers()).find((container) => container.role === 'pool');
    expect(pooled).toBeDefined();
    await stopPin(pinName);
    await stopPin(basePinName);
    await warm.forSession('warm-after-stop').exec({ command: 'true' });
    // It was the pooled container, renamed: the warm path, not a cold start.
    expect(await warm.acquireContainer('warm-after-stop')).toBe(pooled!.id);
    await expectBothPinned();
  });

  it('moves a pin running another image back to the tag’s current image', async () => {
    await dockerCli('rm', '-f', pinName);
    // Someone started a container of the pin's name off the base image.
    await dockerCli('run', '-d', '--init', '--name', pinName, testBaseImage, 'sleep', 'infinity');
    await cold.forSession('cold-after-swap').exec({ command: 'true' });
    await expectBothPinned();
  });

  it('coalesces the checks of concurrent new sessions into one, and every session works', async () => {
    const keeper = new PinKeeper(engine, cold.config, silentLogger);
    // The session path's look: two inspects, whoever asks at the same time.
    const looks = Array.from({ length: 16 }, () => keeper.look());
    expect(new Set(looks).size).toBe(1);
    expect((await looks[0])?.pin?.State.Running).toBe(true);
    const checks = Array.from({ length: 16 }, () => keeper.check());
    expect(new Set(checks).size).toBe(1);
    // A fresh check (ensure, re-pin) never reuses one that started before it asked.
    const fresh = keeper.check({ fresh: true });
    expect(fresh).not.toBe(checks[0]);
    expect((await fresh).pin.outcome).toBe('already-pinned');

    await dockerCli('rm', '-f', pinName, basePinName);
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        cold.forSession(`concurrent-${index}`).exec({ command: `echo ${index}` }),
      ),
    );
    expect(results.map((result) => result.stdout.text)).toEqual(
      Array.from({ length: 16 }, (_, index) => `${index}\n`),
    );
    await expectBothPinned();
  });
});

describe('the pins on the other paths', () => {
  it('re-pin covers the base pin too', async () => {
    await dockerCli('rm', '-f', basePinName);
    expect((await cold.repin()).outcome).toBe('already-pinned');
    await expectBothPinned();
    await stopPin(basePinName);
    expect(await cold.checkPins()).toMatchObject({
      pin: { outcome: 'already-pinned' },
      basePin: { outcome: 'pinned' },
    });
    await expectBothPinned();
  });

  it('the periodic reconcile restores a removed pin with no session and no ensure', async () => {
    const reconciling = testService(name, { pinCheckIntervalMs: 200 });
    await reconciling.start();
    try {
      await dockerCli('rm', '-f', pinName);
      // Not `stopPin`: the reconciler (every 200 ms) may already be replacing the stopped pin when a
      // check right after the stop looks — on a loaded machine it did; what counts is that it comes back.
      await dockerCli('stop', '-t', '0', basePinName);
      const pinStates = async () => {
        const [pin, basePin] = await Promise.all([
          engine.inspectContainer(pinName),
          engine.inspectContainer(basePinName),
        ]);
        return { pin: pin?.State, basePin: basePin?.State };
      };
      await waitFor(
        async () => {
          const { pin, basePin } = await pinStates();
          return pin?.Running && basePin?.Running ? true : undefined;
        },
        'the reconciler to bring back both pins (one removed, one stopped)',
        { attempts: 300, intervalMs: 100, state: pinStates },
      );
      await expectBothPinned();
    } finally {
      await reconciling.close();
    }
  });

  it('defaults to a reconcile at most a minute apart, and refuses a longer one', () => {
    expect(parseSandboxConfig({ agentdeskVersion: '1' }).pinCheckIntervalMs).toBe(30_000);
    expect(() => parseSandboxConfig({ agentdeskVersion: '1', pinCheckIntervalMs: 60_001 })).toThrow();
    expect(parseSandboxConfig({ agentdeskVersion: '1', pinCheckIntervalMs: 0 }).pinCheckIntervalMs).toBe(0);
  });
});

describe('the pins are not containers to manage', () => {
  it('leaves them out of the container list and refuses to remove them by name or id', async () => {
    const pinId = (await engine.inspectContainer(pinName))!.Id;
    const listed = await cold.listContainers();
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((container) => container.role === 'pin' || container.name === pinName)).toEqual([]);
    expect(await cold.pinOf(pinName)).toBe(pinName);
    expect(await cold.pinOf(pinId)).toBe(pinName);
    expect(await cold.pinOf(basePinName)).toBe(basePinName);
    expect(await cold.pinOf(listed[0]!.id)).toBeUndefined();
    for (const target of [pinName, pinId, basePinName]) {
      await expect(cold.removeContainer(target)).rejects.toMatchObject({
        code: 'invalid-input',
        message: expect.stringContaining('re-pin'),
      });
    }
    await expectBothPinned();
  });
});

describe('a build on a session’s path', () => {
  it('is reported once, with the session, when the image is missing; sessions joining it are not', async () => {
    const started: Array<{ handle: BuildHandle; cause: BuildCause }> = [];
    const reporting = testService(
      name,
      {},
      { onBuildStarted: (handle, cause) => void started.push({ handle, cause }) },
    );
    const before = (await engine.inspectImage(tag))!.Id;
    await engine.removeImage(tag, true); // untagged behind our back (the pin keeps the old id alive)
    const sessions = ['needs-image-1', 'needs-image-2', 'needs-image-3'];
    await Promise.all(sessions.map((session) => reporting.forSession(session).exec({ command: 'true' })));
    expect(started).toHaveLength(1);
    expect(started[0]!.cause).toEqual({ trigger: 'session', sessionId: expect.any(String) });
    expect(sessions).toContain(started[0]!.cause.sessionId);
    const outcome = await started[0]!.handle.done;
    expect(outcome).toMatchObject({ status: 'built' });
    expect(outcome.status === 'built' && outcome.imageId).not.toBe(before);
    await expectBothPinned();
    await reporting.close();
  });
});

describe('prunes', () => {
  it('keeps the image and its base through docker system prune -af after both pins were stopped and a new session came', async () => {
    const [image, base] = await Promise.all([engine.inspectImage(tag), engine.inspectImage(testBaseImage)]);
    // Nothing else may hold the base: only our base pin counts (other files' leftovers would hide a loss).
    for (const id of (await dockerCli('ps', '-aq', '--filter', `ancestor=${testBaseImage}`)).split('\n')) {
      const container = id ? await engine.inspectContainer(id) : undefined;
      if (container?.Image === base!.Id && container.Name !== `/${basePinName}`)
        await engine.removeContainer(container.Id);
    }
    await stopPin(pinName);
    await stopPin(basePinName);
    await cold.forSession('before-prune').exec({ command: 'true' });
    await dockerCli('system', 'prune', '-af');
    expect((await engine.inspectImage(tag))?.Id).toBe(image!.Id);
    expect((await engine.inspectImage(testBaseImage))?.Id).toBe(base!.Id);
    await expectBothPinned();
  });
});
