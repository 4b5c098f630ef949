import { describe, expect, it } from 'vitest';
import { buildLogLineOf, buildOutcomeOf, readCheckedBuildEvent } from './build-log-model';
import { parseBuildEvent } from './server/checked-build-events';

describe('the build log as the sandbox page shows it', () => {
  it.each([
    [
      { type: 'build-start', at: 1, tag: 'agentdesk-sandbox:latest', reason: 'forced' },
      'start',
      'Building agentdesk-sandbox:latest: forced',
    ],
    [
      { type: 'step', at: 2, index: 2, total: 10, instruction: 'RUN mkdir /workspace' },
      'step',
      'Step 2/10: RUN mkdir /workspace',
    ],
    [
      { type: 'progress', at: 3, id: 'abc', status: 'Extracting', current: 5, total: 9 },
      'progress',
      'abc: Extracting (5/9)',
    ],
    [{ type: 'line', at: 4, text: ' ---> 391ac37b2ccb' }, 'output', ' ---> 391ac37b2ccb'],
    [{ type: 'error', at: 5, message: 'no space left' }, 'error', 'Error: no space left'],
    [{ type: 'build-end', at: 6, status: 'built', imageId: 'sha256:1' }, 'end', 'Build built: sha256:1'],
    [
      { type: 'build-running-elsewhere', at: 7, message: 'runs in another API process' },
      'notice',
      'runs in another API process',
    ],
  ])('%j', (event, kind, text) => {
    expect(buildLogLineOf(event)).toEqual({ kind, text });
  });

  it('knows a build’s outcome only from its build-end event', () => {
    expect(buildOutcomeOf({ type: 'build-end', at: 1, status: 'failed' })).toBe('failed');
    expect(buildOutcomeOf({ type: 'build-end', at: 1, status: 'exploded' })).toBeUndefined();
    expect(buildOutcomeOf({ type: 'line', at: 1, status: 'built' })).toBeUndefined();
  });

  it.each(['not json', '[]', '{"type":"line"}', '{"at":1}', '{"type":3,"at":1}'])(
    'ignores a payload that is not a build event: %s',
    (data) => {
      expect(parseBuildEvent(data)).toBeUndefined();
    },
  );

  it('keeps every field of an event it reads', () => {
    expect(parseBuildEvent('{"type":"line","at":1,"text":"ok"}')).toEqual({
      type: 'line',
      at: 1,
      text: 'ok',
    });
  });

  it('reads a checked event’s JSON in the browser, and skips what is not JSON or has no type', () => {
    expect(readCheckedBuildEvent('{"type":"line","at":1,"text":"ok"}')).toEqual({
      type: 'line',
      at: 1,
      text: 'ok',
    });
    expect(readCheckedBuildEvent('not json')).toBeUndefined();
    expect(readCheckedBuildEvent('{"at":1}')).toBeUndefined();
  });
});
