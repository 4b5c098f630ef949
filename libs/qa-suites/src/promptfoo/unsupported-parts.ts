import type { UnsupportedPartJson } from '@agentdesk/api-contract';

/** Collects what an import leaves behind, each with its path in the source file and why. */
export class UnsupportedParts {
  readonly parts: UnsupportedPartJson[] = [];

  add(path: string, reason: string): void {
    if (!this.parts.some((part) => part.path === path && part.reason === reason))
      this.parts.push({ path, reason });
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
