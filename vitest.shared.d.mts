/** Maps each `@agentdesk/*` path from tsconfig.base.json to its source, so tests run without a build. */
export declare function workspaceAliases(): Array<{ find: RegExp; replacement: string }>;

/** Vitest's default reporter, plus a JSON report of every file's timings when `AGENTDESK_TEST_TIMINGS_DIR` is set. */
export declare function testReporters(project: string): Array<string | [string, { outputFile: string }]>;
