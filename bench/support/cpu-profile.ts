import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where sampled time went, in milliseconds. */
export interface ProfileSummary {
  readonly file: string;
  readonly totalMs: number;
  /** Self time per code owner: a package under node_modules, a workspace folder, node internals, GC, idle. */
  readonly selfByOwner: ReadonlyArray<readonly [string, number]>;
  /** Self time per concern of a gateway (HTTP client, server framework, validation, auth, logging, DB…). */
  readonly selfByConcern: ReadonlyArray<readonly [string, number]>;
  /** Self time per function. */
  readonly selfByFunction: ReadonlyArray<readonly [string, number]>;
  /** Inclusive time (on the stack) per function of the workspace's own code. */
  readonly inclusiveWorkspace: ReadonlyArray<readonly [string, number]>;
}

/** Who owns a script URL: `node_modules/<package>`, a workspace folder, a part of Node, or a runtime bucket. */
function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) {
    if (url.includes('/undici')) return 'node: undici (fetch)';
    if (/node:(_http|http|internal\/http)/.test(url)) return 'node: http';
    if (/node:(net|internal\/(stream_base_commons|net|streams|webstreams))/.test(url))
      return 'node: net + streams';
    if (/node:internal\/(modules|vm)/.test(url)) return 'node: module loading';
    return 'node: other';
  }
  if (url.startsWith('data:')) return 'bench shim (data: URL)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return `node_modules/${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const workspace = /\/(apps\/[^/]+\/src\/[^/]+|libs\/[^/]+\/src\/[^/]+)/.exec(url);
  return workspace?.[1]?.replace(/\?.*$/, '') ?? url;
}

/** The concern an owner's time counts for, for the groups a gateway's profile is read by. */
const concerns: ReadonlyArray<readonly [RegExp, string]> = [
  [/^node_modules\/(openai|@anthropic-ai|@google)/, 'SDK: the official client (openai)'],
  [/^node: undici|^node_modules\/undici/, 'SDK: HTTP client (undici / fetch)'],
  [/^libs\/providers/, 'providers lib (request building, result mapping)'],
  [
    /^node: http|^node_modules\/(fastify|find-my-way|@fastify|light-my-request|avvio|@nestjs|reflect-metadata|rxjs|fast-json-stringify|secure-json-parse|toad-cache|fast-querystring|hono|@hono)|^apps\/api\/src\/(http|metrics|core)/,
    'server: Fastify / Nest (routing, hooks, guards, body parsing, metrics)',
  ],
  [
    /^node_modules\/zod|^libs\/storage\/src\/(text|unstorable)|^apps\/api\/src\/openai-compat/,
    'our route: validation (zod) + translation',
  ],
  [
    /^node_modules\/(passport|passport-custom|@nestjs\/passport)|^apps\/api\/src\/auth|^libs\/authz/,
    'auth: key check, rate limit, scope',
  ],
  [
    /^node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream)|^apps\/api\/src\/logging/,
    'logging (pino)',
  ],
  [/^node_modules\/(kysely|better-sqlite3|pg)|^libs\/storage/, 'DB: key lookup (kysely + better-sqlite3)'],
  [/^node: net/, 'node: sockets + streams (writev…)'],
  [/^\(garbage collector\)/, 'garbage collector'],
  [/^@portkey-ai|^node_modules\/@portkey-ai/, 'Portkey gateway code'],
];
const concernOf = (owner: string) =>
  concerns.find(([pattern]) => pattern.test(owner))?.[1] ??
  `other (${owner.startsWith('node') ? 'node internals' : owner})`;

const shortUrl = (url: string) =>
  url
    .replace(/\?.*$/, '')
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/(apps|libs)\//, '$1/');

const top = (map: Map<string, number>, count: number) =>
  [...map.entries()].sort((left, right) => right[1] - left[1]).slice(0, count);

/**
 * Reads a `.cpuprofile` (from `node --cpu-prof`) and attributes its samples. With `from`, samples
 * before the first one whose stack has a frame matching it (`<function> <url>`) are skipped (start-up). Native
 * frames (no URL: writev, JSON, crypto…) count for the nearest caller that has one, e.g. `writev`
 * under `node: net + streams`.
 */
export function summarizeProfile(
  file: string,
  options: { count?: number; from?: RegExp } = {},
): ProfileSummary {
  const count = options.count ?? 15;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfOwner = new Map<string, number>();
  const selfFunction = new Map<string, number>();
  const selfConcern = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalMs = 0;
  let started = options.from === undefined;
  const stackMatches = (nodeId: number, pattern: RegExp) => {
    for (let current: number | undefined = nodeId; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current)!.callFrame;
      if (pattern.test(`${frame.functionName} ${frame.url}`)) return true;
    }
    return false;
  };
  const ownerUrl = (nodeId: number) => {
    for (let current: number | undefined = nodeId; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current)!.callFrame;
      if (frame.url || frame.functionName.startsWith('(')) return frame;
    }
    return byId.get(nodeId)!.callFrame;
  };
  profile.samples.forEach((nodeId, index) => {
    if (!started) started = stackMatches(nodeId, options.from!);
    if (!started) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    totalMs += ms;
    const node = byId.get(nodeId);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const attributed = url ? node.callFrame : ownerUrl(nodeId);
    const owner = ownerOf(attributed.url, attributed.functionName);
    selfOwner.set(owner, (selfOwner.get(owner) ?? 0) + ms);
    const concern = owner === '(idle)' ? owner : concernOf(owner);
    selfConcern.set(concern, (selfConcern.get(concern) ?? 0) + ms);
    const name = `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
    selfFunction.set(name, (selfFunction.get(name) ?? 0) + ms);
    const seen = new Set<string>();
    for (let current: number | undefined = nodeId; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current)!.callFrame;
      if (!/\/(apps|libs)\//.test(frame.url) || frame.url.includes('/node_modules/')) continue;
      const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  return {
    file,
    totalMs,
    selfByOwner: top(selfOwner, count),
    selfByConcern: top(selfConcern, count),
    selfByFunction: top(selfFunction, count),
    inclusiveWorkspace: top(inclusive, count),
  };
}

/** The largest `.cpuprofile` in a folder: the main thread's (loader hooks run in a worker thread with its own, small profile). */
export function profileIn(directory: string): string | undefined {
  const files = readdirSync(directory)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => ({ file: join(directory, file), size: statSync(join(directory, file)).size }))
    .sort((left, right) => right.size - left.size);
  return files[0]?.file;
}

/** A Markdown rendering of a summary, shares of the busy (non-idle) time. */
export function formatSummary(title: string, summary: ProfileSummary): string {
  const idle = summary.selfByOwner.find(([owner]) => owner === '(idle)')?.[1] ?? 0;
  const busy = summary.totalMs - idle;
  const share = (ms: number) => `${((ms / busy) * 100).toFixed(1)} %`;
  const table = (heading: string, rows: ReadonlyArray<readonly [string, number]>) =>
    [
      `| ${heading} | ms | share of busy |`,
      '|---|---:|---:|',
      ...rows
        .filter(([name]) => name !== '(idle)')
        .map(([name, ms]) => `| \`${name}\` | ${ms.toFixed(0)} | ${share(ms)} |`),
    ].join('\n');
  return [
    `#### ${title}`,
    '',
    `${busy.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms sampled (\`${summary.file}\`).`,
    '',
    table('self time by concern', summary.selfByConcern),
    '',
    table('self time by owner', summary.selfByOwner),
    '',
    table('self time by function', summary.selfByFunction),
    '',
    table('inclusive time, workspace functions', summary.inclusiveWorkspace),
  ].join('\n');
}
