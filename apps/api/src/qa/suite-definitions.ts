import type { SuiteDefinition } from '@agentdesk/api-contract';
import type { Repositories } from '@agentdesk/storage';
import { definitionOf } from './suite-json';

/**
 * Parsed definitions kept per replica: a matrix, a compare or a run list reads the same one or
 * two versions again and again. 1,000-cell definitions are a few hundred KB of JSON each.
 */
const MAX_REMEMBERED_VERSIONS = 32;

/**
 * Each suite version's definition, read and parsed once (a saved version never changes, so no
 * replica can hold a stale one). Least recently used first out; a failed read is not kept, so the
 * next request tries again and sees the same error (a missing version stays a storage NotFound).
 */
export class SuiteDefinitions {
  private readonly known = new Map<string, Promise<SuiteDefinition>>();

  constructor(private readonly suites: Pick<Repositories['qaSuites'], 'version'>) {}

  get(suiteId: string, version: number): Promise<SuiteDefinition> {
    const key = `${suiteId}#${version}`;
    const known = this.known.get(key);
    if (known !== undefined) {
      // Moved to the back: the least recently used stays at the front, next out.
      this.known.delete(key);
      this.known.set(key, known);
      return known;
    }
    const loading = this.suites.version(suiteId, version).then(definitionOf);
    loading.catch(() => {
      if (this.known.get(key) === loading) this.known.delete(key);
    });
    this.known.set(key, loading);
    if (this.known.size > MAX_REMEMBERED_VERSIONS) {
      const leastRecent = this.known.keys().next().value;
      if (leastRecent !== undefined) this.known.delete(leastRecent);
    }
    return loading;
  }
}
