/** Maps each `@agentdesk/*` path from tsconfig.base.json to its source, so tests run without a build. */
export declare function workspaceAliases(): Array<{ find: RegExp; replacement: string }>;
