import type { SuiteDefinition } from '@agentdesk/api-contract';
import { stringify } from 'yaml';
import type { SuiteFormat } from './file-issue';

/**
 * Writes a definition as a suite file that `parseSuiteFile` reads back to the same definition.
 * YAML keeps long prompts readable (block scalars, no line folding); JSON is indented by two.
 */
export function serializeSuite(definition: SuiteDefinition, format: SuiteFormat): string {
  if (format === 'json') return `${JSON.stringify(definition, null, 2)}\n`;
  // lineWidth 0: never fold a prompt across lines; aliasDuplicateObjects off: no anchors in exports.
  return stringify(definition, { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}
