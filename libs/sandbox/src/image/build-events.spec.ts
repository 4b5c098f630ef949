import { expect, it } from 'vitest';
import { renderBuildContext } from './build-context';
import { toBuildEvents } from './build-events';
import { sandboxConfigSchema } from '../config/sandbox-config';

it('maps steps, lines, progress and the in-stream error the engine sends for a failing step', () => {
  expect(toBuildEvents({ stream: 'Step 2/7 : RUN make\n' }, 1)).toEqual([
    { type: 'step', at: 1, index: 2, total: 7, instruction: 'RUN make' },
  ]);
  expect(toBuildEvents({ stream: ' ---> Running in abc\nhello\n' }, 1)).toEqual([
    { type: 'line', at: 1, text: ' ---> Running in abc' },
    { type: 'line', at: 1, text: 'hello' },
  ]);
  expect(
    toBuildEvents({ status: 'Downloading', id: 'l1', progressDetail: { current: 5, total: 10 } }, 1),
  ).toEqual([{ type: 'progress', at: 1, status: 'Downloading', id: 'l1', current: 5, total: 10 }]);
  expect(
    toBuildEvents(
      {
        error: 'short',
        errorDetail: { code: 3, message: "The command '/bin/sh -c exit 3' returned a non-zero code: 3" },
      },
      1,
    ),
  ).toEqual([
    { type: 'error', at: 1, message: "The command '/bin/sh -c exit 3' returned a non-zero code: 3" },
  ]);
  expect(toBuildEvents({ errorDetail: { message: 'only detail' } }, 1)).toEqual([
    { type: 'error', at: 1, message: 'only detail' },
  ]);
});

it('hashes the rendered context: same config same hash, any build step or base change a new one', () => {
  const config = sandboxConfigSchema.parse({ agentdeskVersion: '1' });
  const hash = renderBuildContext(config).contentHash;
  expect(renderBuildContext(sandboxConfigSchema.parse({ agentdeskVersion: '2' })).contentHash).toBe(hash);
  expect(renderBuildContext({ ...config, extraBuildSteps: ['RUN true'] }).contentHash).not.toBe(hash);
  expect(renderBuildContext({ ...config, baseImage: 'node:20' }).contentHash).not.toBe(hash);
  expect(renderBuildContext(config).dockerfile).toMatch(
    /^FROM agentdesk-sandbox-base:local\n[\s\S]*USER 1000:1000\n/,
  );
});

it('rejects a config with unknown or out-of-range fields, naming them', () => {
  expect(() => sandboxConfigSchema.parse({ agentdeskVersion: '1', poolSize: 3 })).toThrow(/poolSize/);
  expect(() => sandboxConfigSchema.parse({ agentdeskVersion: '1', limits: { pids: 2 } })).toThrow(/pids/);
  expect(() => sandboxConfigSchema.parse({})).toThrow(/agentdeskVersion/);
});
