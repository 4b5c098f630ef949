import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oomKillsIn, requestCommand, shellQuote } from './assertion-server-commands';

const run = promisify(execFile);

describe('assertion runner commands', () => {
  it('quotes any text so the shell hands it over unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 200 }).map((text) => text.replaceAll('\0', '')),
        async (text) => {
          const { stdout } = await run('sh', ['-c', `printf '%s' ${shellQuote(text)}`]);
          expect(stdout).toBe(text);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('puts the request in the command quoted, or leaves it out when it went in as a file', () => {
    const request = `{"checks":[{"code":"return output.name === 'it''s'"}]}`;
    const inline = requestCommand('.qa/s-abc123', 'id-1', request);
    expect(inline).toContain(`printf '%s' ${shellQuote(request)} > $d/q-id-1.json`);
    expect(inline).toContain('[ "$host" = \'abc123\' ]');
    expect(requestCommand('.qa/s-abc123', 'id-1', undefined)).not.toContain('q-id-1.json');
  });

  it('reads the OOM kill count from cgroup v2 and v1 output, and nothing from other text', () => {
    expect(oomKillsIn('.qa/s-x\noom_kill 3\n')).toBe(3);
    expect(oomKillsIn('oom_kill 0')).toBe(0);
    expect(oomKillsIn('no cgroup here')).toBeUndefined();
    expect(oomKillsIn('under_oom_kill 4')).toBeUndefined();
  });
});
