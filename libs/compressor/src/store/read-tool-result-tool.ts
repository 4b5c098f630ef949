import type { ToolDefinition } from '@agentdesk/providers';
import { z } from 'zod';
import { formatCount, type NoticeLanguage } from '../truncation/truncation-notice';
import type { ToolResultStore } from './tool-result-store';

/** Name of the tool that pages through stored tool results. */
export const READ_TOOL_RESULT_TOOL_NAME = 'read_tool_result';
/** Largest page the tool serves by default, in characters. */
export const DEFAULT_READ_TOOL_RESULT_MAX_LIMIT = 16_000;

/** Builds the `read_tool_result(id, offset, limit)` definition for a given page cap. */
export function createReadToolResultTool(maxLimit = DEFAULT_READ_TOOL_RESULT_MAX_LIMIT): ToolDefinition {
  return {
    name: READ_TOOL_RESULT_TOOL_NAME,
    description:
      'Read part of a tool result that was truncated to fit the context. The truncated result names ' +
      'the id of its stored original. Returns the characters from `offset` (0-based) up to `limit` ' +
      'characters, with the total length and the offset of the next page.',
    parameters: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: 'Id of the stored tool result, as named in the truncation notice.',
        },
        offset: { type: 'integer', minimum: 0, description: 'First character to read (0-based).' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: maxLimit,
          description: `Number of characters to read (at most ${maxLimit}).`,
        },
      },
      required: ['id', 'offset', 'limit'],
      additionalProperties: false,
    },
  };
}

/** The `read_tool_result(id, offset, limit)` tool definition with the default page cap. */
export const readToolResultTool: ToolDefinition = createReadToolResultTool();

/** What the executor returns: the tool message content, and whether it reports an error to the model. */
export interface ReadToolResultOutput {
  content: string;
  isError: boolean;
}

/** Options of {@link createReadToolResultExecutor}. */
export interface ReadToolResultExecutorOptions {
  /** Page cap in characters; larger `limit`s are clamped to it. Default {@link DEFAULT_READ_TOOL_RESULT_MAX_LIMIT}. */
  maxLimit?: number;
  /** Language of the page header and error texts. Default `en`. */
  language?: NoticeLanguage;
}

const argumentsSchema = z
  .object({
    id: z.string().min(1),
    offset: z.number().int().min(0),
    limit: z.number().int().min(1),
  })
  .strict();

/**
 * Runs `read_tool_result` calls against a store. Accepts the call's arguments as the JSON text a
 * `ToolCall` carries or as a parsed object. Bad arguments and
 * unknown ids come back as error results the model can act on, never as exceptions.
 */
export function createReadToolResultExecutor(
  store: ToolResultStore,
  options: ReadToolResultExecutorOptions = {},
): (toolArguments: unknown) => Promise<ReadToolResultOutput> {
  const maxLimit = options.maxLimit ?? DEFAULT_READ_TOOL_RESULT_MAX_LIMIT;
  const language = options.language ?? 'en';
  return async (toolArguments) => {
    let input: unknown = toolArguments;
    if (typeof toolArguments === 'string') {
      try {
        input = JSON.parse(toolArguments);
      } catch {
        return error(language, 'arguments', 'not valid JSON');
      }
    }
    const parsed = argumentsSchema.safeParse(input);
    if (!parsed.success) {
      const detail = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
      return error(language, 'arguments', detail);
    }
    const { id, offset, limit } = parsed.data;
    const page = await store.get(id, offset, Math.min(limit, maxLimit));
    if (page === undefined) return error(language, 'id', `unknown id "${id}"`);
    const from = formatCount(page.offset, language);
    const to = formatCount(page.offset + page.content.length, language);
    const total = formatCount(page.totalCharacters, language);
    const next =
      page.nextOffset === null
        ? language === 'fr'
          ? 'fin du résultat'
          : 'end of result'
        : language === 'fr'
          ? `offset suivant : ${page.nextOffset}`
          : `next offset: ${page.nextOffset}`;
    const header =
      language === 'fr'
        ? `[read_tool_result "${page.id}" (${page.toolName}) : caractères ${from}–${to} sur ${total} ; ${next}]`
        : `[read_tool_result "${page.id}" (${page.toolName}): characters ${from}–${to} of ${total}; ${next}]`;
    return { content: `${header}\n${page.content}`, isError: false };
  };
}

function error(language: NoticeLanguage, subject: 'arguments' | 'id', detail: string): ReadToolResultOutput {
  const content =
    language === 'fr'
      ? `Erreur read_tool_result (${subject === 'id' ? 'identifiant' : 'arguments'}) : ${detail}. Attendu : {"id": string, "offset": entier ≥ 0, "limit": entier ≥ 1}.`
      : `read_tool_result error (${subject}): ${detail}. Expected {"id": string, "offset": integer ≥ 0, "limit": integer ≥ 1}.`;
  return { content, isError: true };
}
