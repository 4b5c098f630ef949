import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSandboxError, type SandboxError, type SessionSandbox } from '../src/index';
import { removeEverything, testService } from './test-engine';

const service = testService('links');

beforeAll(() => service.ensureSandboxImage());
afterAll(() => removeEverything(service));

async function rejection(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    if (isSandboxError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A session whose workspace holds links of every kind, made by the sandbox user as a model would. */
async function sandboxWithLinks(sessionId: string): Promise<SessionSandbox> {
  const sandbox = service.forSession(sessionId);
  const made = await sandbox.exec({
    command: [
      'mkdir -p src/deep && echo hi > src/a.txt',
      'ln -s /etc etcdir && ln -s ../../etc relative-out && ln -s /etc/passwd passwd-link && ln -s /tmp tmpx',
      'ln -s src alias && ln -s src/a.txt a-link && ln -s /workspace self && ln -s missing.txt dangling',
      'ln -s loop-b loop-a && ln -s loop-a loop-b',
    ].join(' && '),
  });
  expect(made.exitCode).toBe(0);
  return sandbox;
}

describe.concurrent('file tools and symbolic links', () => {
  it('refuses to read through a link out of /workspace, naming the path and the link', async () => {
    const sandbox = await sandboxWithLinks('read-out');
    const error = await rejection(sandbox.readFile('etcdir/passwd'));
    expect(error.code).toBe('invalid-path');
    expect(error.message).toContain('"etcdir/passwd"');
    expect(error.message).toContain('etcdir is a symbolic link to /etc, out of /workspace');
    for (const path of [
      'passwd-link',
      'relative-out/passwd',
      '/workspace/etcdir/shadow',
      'alias/../etcdir/group',
    ]) {
      expect((await rejection(sandbox.readFile(path))).code, path).toBe('invalid-path');
    }
  });

  it('refuses to write through a link out of /workspace, and leaves the links (and /etc) alone', async () => {
    const sandbox = await sandboxWithLinks('write-out');
    for (const path of ['tmpx/a', 'passwd-link', 'etcdir/x', 'relative-out/y']) {
      const error = await rejection(sandbox.writeFile(path, 'pwned\n'));
      expect(error.code, path).toBe('invalid-path');
      expect(error.message, path).toContain('out of /workspace');
    }
    const after = await sandbox.exec({
      command: 'for link in tmpx passwd-link etcdir; do readlink $link; done; head -1 /etc/passwd',
    });
    expect(after.stdout.text).toBe('/tmp\n/etc/passwd\n/etc\nroot:x:0:0:root:/root:/bin/sh\n');
  });

  it('lists a link out of /workspace as the link, and refuses to list through it', async () => {
    const sandbox = await sandboxWithLinks('list-out');
    const listed = await sandbox.listFiles({ path: 'etcdir' });
    expect(listed).toEqual({
      entries: [expect.objectContaining({ path: 'etcdir', type: 'symlink', linkTarget: '/etc' })],
      truncated: false,
    });
    expect((await rejection(sandbox.listFiles({ path: 'etcdir/ssl' }))).code).toBe('invalid-path');
    expect((await sandbox.listFiles({ path: 'relative-out', recursive: true })).entries).toEqual([
      expect.objectContaining({ path: 'relative-out', type: 'symlink', linkTarget: '/etc' }),
    ]);
    const top = await sandbox.listFiles();
    expect(top.entries).toContainEqual(expect.objectContaining({ path: 'etcdir', type: 'symlink' }));
  });

  it('follows links that stay inside /workspace, for read, write and list', async () => {
    const sandbox = await sandboxWithLinks('inside');
    expect((await sandbox.readFile('alias/a.txt')).content.toString()).toBe('hi\n');
    expect((await sandbox.readFile('a-link')).content.toString()).toBe('hi\n');
    expect((await sandbox.readFile('self/self/src/a.txt')).content.toString()).toBe('hi\n');

    expect(await sandbox.writeFile('alias/deep/b.txt', 'bee\n')).toEqual({
      path: 'alias/deep/b.txt',
      bytes: 4,
    });
    expect(await sandbox.writeFile('a-link', 'changed\n')).toEqual({ path: 'a-link', bytes: 8 });
    expect(await sandbox.writeFile('dangling', 'made\n')).toEqual({ path: 'dangling', bytes: 5 });
    const after = await sandbox.exec({
      command:
        'cat src/deep/b.txt src/a.txt missing.txt; for link in alias a-link dangling; do readlink $link; done; stat -c %u src/deep/b.txt',
    });
    expect(after.stdout.text).toBe('bee\nchanged\nmade\nsrc\nsrc/a.txt\nmissing.txt\n1000\n');

    const listed = await sandbox.listFiles({ path: 'alias', recursive: true });
    expect(listed.entries.map((entry) => [entry.path, entry.type])).toEqual([
      ['alias/a.txt', 'file'],
      ['alias/deep', 'directory'],
      ['alias/deep/b.txt', 'file'],
    ]);
  });

  it('refuses a loop of links, and a write over a directory', async () => {
    const sandbox = await sandboxWithLinks('loops');
    const loop = await rejection(sandbox.readFile('loop-a'));
    expect(loop).toMatchObject({
      code: 'invalid-path',
      message: expect.stringContaining('cannot be resolved'),
    });
    expect((await rejection(sandbox.writeFile('loop-b/x', 'x'))).code).toBe('invalid-path');
    const overDirectory = await rejection(sandbox.writeFile('src', 'x'));
    expect(overDirectory).toMatchObject({
      code: 'invalid-path',
      message: expect.stringContaining('src is a directory'),
    });
    expect((await sandbox.readFile('src/a.txt')).content.toString()).toBe('hi\n');
  });

  it('still says a missing file does not exist, and reads a plain file', async () => {
    const sandbox = await sandboxWithLinks('plain');
    expect((await rejection(sandbox.readFile('nope/deeper.txt'))).code).toBe('file-not-found');
    expect((await rejection(sandbox.readFile('src/nope.txt'))).message).toBe(
      'src/nope.txt does not exist in /workspace',
    );
    expect((await sandbox.readFile('/workspace/src/a.txt')).content.toString()).toBe('hi\n');
  });
});
