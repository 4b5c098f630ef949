import {
  executeChatCompletion,
  type ChatMessage,
  type ModelParams,
  type RetryPolicy,
  type SupportedClient,
} from '@agentdesk/providers';
import { createTokenCounter, type TokenCounter } from '../tokens/count-tokens';
import type { NoticeLanguage } from '../truncation/truncation-notice';
import { renderEntriesForSummary } from './render-entries';
import type { SummarizeOptions, Summarizer } from './summarizer';

/** Options of {@link createModelSummarizer}. */
export interface ModelSummarizerOptions {
  /** An official OpenAI, Anthropic or Gemini client (as `executeChatCompletion` accepts). */
  client: SupportedClient;
  /** The summarizing model; usually a small, fast one. */
  modelParams: ModelParams;
  /** Most tokens of rendered entries sent to the model. Default 24,000. */
  inputBudgetTokens?: number;
  /** Counter for the input budget. Default: the counter for `modelParams.model`. */
  counter?: TokenCounter;
  /** Replaces the built-in instructions. */
  instructions?: string;
  /** Retry policy overrides for the call (the compressor's timeout still applies). */
  retry?: Partial<RetryPolicy>;
}

/** Asking for less than the hard limit leaves room for the model's own token count differing from ours. */
const TARGET_SHARE_OF_LIMIT = 0.8;

function instructionsFor(language: NoticeLanguage, targetTokens: number): string {
  return language === 'fr'
    ? 'Vous condensez les appels d’outils antérieurs d’un agent IA et leurs résultats en un résumé factuel ' +
        'et compact, que l’agent relira plus tard. Conservez les outils appelés et leurs arguments clés, les faits, ' +
        'nombres, identifiants, noms, erreurs et conclusions. Quand un résultat est marqué comme coupé, dites que ' +
        'les données sont incomplètes ; n’inventez jamais de totaux. Répondez en français, en texte simple, ' +
        `en ${targetTokens} tokens au plus.`
    : 'You condense an AI agent’s earlier tool calls and their results into a compact, factual summary the ' +
        'agent will read later. Keep which tools were called with which key arguments, and the facts, numbers, ' +
        'ids, names, errors and conclusions. When a result is marked as cut, say that its data is incomplete; ' +
        `never invent totals. Answer in English, in plain text, in at most ${targetTokens} tokens.`;
}

/**
 * A {@link Summarizer} that asks a model through `executeChatCompletion` (non-streaming). Entries
 * are rendered as text within the input budget; the model is asked for 80% of the allowed tokens
 * and capped at the allowed tokens. Errors propagate: the compressor reports them and truncates.
 */
export function createModelSummarizer(options: ModelSummarizerOptions): Summarizer {
  const counter = options.counter ?? createTokenCounter({ model: options.modelParams.model });
  const inputBudgetTokens = options.inputBudgetTokens ?? 24_000;
  return {
    async summarize(entries: readonly ChatMessage[], summarizeOptions: SummarizeOptions): Promise<string> {
      const language = summarizeOptions.language ?? 'en';
      const targetTokens = Math.max(1, Math.floor(summarizeOptions.maxTokens * TARGET_SHARE_OF_LIMIT));
      const rendered = renderEntriesForSummary(entries, inputBudgetTokens, counter, language);
      const result = await executeChatCompletion(options.client, {
        modelParams: options.modelParams,
        messages: [
          { role: 'system', content: options.instructions ?? instructionsFor(language, targetTokens) },
          { role: 'user', content: rendered },
        ],
        maxTokens: summarizeOptions.maxTokens,
        signal: summarizeOptions.signal,
        ...(options.retry === undefined ? {} : { retry: options.retry }),
      });
      return result.text;
    },
  };
}
