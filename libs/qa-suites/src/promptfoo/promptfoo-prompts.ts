import type { SuiteCase } from '@agentdesk/api-contract';
import { isRecord, type UnsupportedParts } from './unsupported-parts';

type Message = NonNullable<SuiteCase['messages']>[number];

/** One promptfoo prompt: its text, or chat messages when the text is a JSON array of them. */
export type ImportedPrompt = { label: string | undefined; text: string; messages: Message[] | undefined };

const ROLES = new Set(['system', 'user', 'assistant']);

/** promptfoo's chat format: a prompt whose text is a JSON array of `{ role, content }`. */
function chatMessages(text: string): Message[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
    const messages = parsed.map((item) =>
      isRecord(item) &&
      typeof item['role'] === 'string' &&
      ROLES.has(item['role']) &&
      typeof item['content'] === 'string'
        ? ({ role: item['role'], content: item['content'] } as Message)
        : undefined,
    );
    return messages.every((message) => message !== undefined) ? (messages as Message[]) : undefined;
  } catch {
    return undefined;
  }
}

/** promptfoo `prompts` → prompt texts (or message lists); files and functions cannot come along. */
export function importPrompts(prompts: unknown, unsupported: UnsupportedParts): ImportedPrompt[] {
  const list = typeof prompts === 'string' ? [prompts] : Array.isArray(prompts) ? prompts : [];
  if (prompts !== undefined && !Array.isArray(prompts) && typeof prompts !== 'string') {
    unsupported.add('prompts', 'prompts given as a map of files: list the prompt texts');
  }
  const imported: ImportedPrompt[] = [];
  list.forEach((entry, index) => {
    const path = `prompts[${index}]`;
    const prompt = typeof entry === 'string' ? { raw: entry } : isRecord(entry) ? entry : undefined;
    const raw = prompt?.['raw'];
    if (typeof raw !== 'string' || raw.trim() === '') {
      unsupported.add(path, 'a prompt that is not inline text (a file or a function): paste its text');
      return;
    }
    if (raw.startsWith('file://')) {
      unsupported.add(path, 'a prompt read from a file: paste its text');
      return;
    }
    const label = typeof prompt?.['label'] === 'string' ? prompt['label'] : undefined;
    imported.push({ label, text: raw, messages: chatMessages(raw) });
  });
  return imported;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*)\s*\}\}/g;
const OTHER_TEMPLATE_SYNTAX = /\{%|\{#|\{\{(?!\s*[A-Za-z_$][\w$]*\s*\}\})/;

/**
 * Fills `{{var}}` placeholders with a test's vars (strings as they are, anything else as JSON).
 * Nunjucks beyond plain placeholders (filters, tags, expressions) is left as written and listed.
 */
export function fillTemplate(
  template: string,
  vars: Record<string, unknown>,
  path: string,
  unsupported: UnsupportedParts,
): string {
  if (OTHER_TEMPLATE_SYNTAX.test(template)) {
    unsupported.add(path, 'Nunjucks beyond {{var}} (filters, tags, expressions) is left as written');
  }
  return template.replace(PLACEHOLDER, (placeholder, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(vars, name)) {
      unsupported.add(path, `no value for {{${name}}}: left as written`);
      return placeholder;
    }
    const value = vars[name];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}
