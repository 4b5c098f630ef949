import type { AssistantMessage, ChatMessage } from '@agentdesk/providers';
import type { ScratchpadGroup } from '../messages/scratchpad-groups';
import type { Summarizer } from '../summarizer/summarizer';
import { fitsAsIs, storeResult, type CompressionContext } from './compression-context';
import type { OlderEntriesOutcome, RemovedEntry, SummarizerReport, TruncatedItem } from './compression-event';
import {
  removedEntriesNote,
  storedReferencesLine,
  summaryHeading,
  type StoredReference,
} from './compressor-texts';
import { fitGroup } from './truncate-group';

/** How older entries were fitted into what the newest group left. */
export interface OlderEntriesResult {
  messages: ChatMessage[];
  outcome: OlderEntriesOutcome;
  summarizer: SummarizerReport;
  truncatedItems: TruncatedItem[];
  removedEntries: RemovedEntry[];
}

/** Settings for the summary attempt. */
export interface SummaryPolicy {
  summarizer?: Summarizer;
  timeoutMilliseconds: number;
  minimumSummaryTokens: number;
  signal?: AbortSignal;
}

/**
 * Fits the entries older than the newest group into `targetTokens`: verbatim when they fit;
 * otherwise summarized by the summarizer; and when there is none, or it fails, times out,
 * returns nothing or overshoots, by the deterministic fallback (newest older groups kept whole,
 * the next one truncated if it can be, the rest replaced by a short note).
 */
export async function compressOlderEntries(
  context: CompressionContext,
  groups: readonly ScratchpadGroup[],
  targetTokens: number,
  policy: SummaryPolicy,
): Promise<OlderEntriesResult> {
  const messages = groups.flatMap((group) => group.messages);
  let used = 0;
  let allFit = true;
  for (const message of messages) {
    if (!fitsAsIs(context, message, targetTokens - used)) {
      allFit = false;
      break;
    }
    used += context.counter.countMessage(message);
  }
  if (allFit) {
    return {
      messages,
      outcome: 'kept',
      summarizer: { status: 'not-needed' },
      truncatedItems: [],
      removedEntries: [],
    };
  }

  let summarizer: SummarizerReport = { status: 'not-configured' };
  if (policy.summarizer !== undefined) {
    const attempt = await summarize(context, messages, targetTokens, {
      ...policy,
      summarizer: policy.summarizer,
    });
    if (attempt.message !== undefined) {
      return {
        messages: [attempt.message],
        outcome: 'summarized',
        summarizer: attempt.report,
        truncatedItems: [],
        removedEntries: attempt.removed,
      };
    }
    summarizer = attempt.report;
  }
  return { ...(await truncateOlder(context, groups, targetTokens)), summarizer };
}

/** Stores the results of entries leaving the context and describes them for the event. */
async function removedEntries(
  context: CompressionContext,
  messages: readonly ChatMessage[],
  how: RemovedEntry['how'],
): Promise<RemovedEntry[]> {
  const entries: RemovedEntry[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      const storedResultId = await storeResult(context, message);
      entries.push({
        role: 'tool',
        how,
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        ...(storedResultId === undefined ? {} : { storedResultId }),
      });
    } else if (message.role === 'assistant') {
      entries.push({ role: 'assistant', how });
    }
  }
  return entries;
}

function referencesOf(entries: readonly RemovedEntry[]): StoredReference[] {
  return entries.flatMap((entry) =>
    entry.storedResultId === undefined || entry.toolName === undefined
      ? []
      : [{ toolName: entry.toolName, id: entry.storedResultId }],
  );
}

function abortMessage(reason: unknown): string {
  return reason instanceof Error ? reason.message : 'the caller aborted the compression';
}

/** Tokens kept free where the heading, the summary and the references meet. */
const SUMMARY_SEAM_TOKENS = 4;

async function summarize(
  context: CompressionContext,
  messages: readonly ChatMessage[],
  targetTokens: number,
  policy: SummaryPolicy & { summarizer: Summarizer },
): Promise<{ message?: AssistantMessage; report: SummarizerReport; removed: RemovedEntry[] }> {
  const { counter, language } = context;
  const heading = summaryHeading(language, messages.length);
  // The originals are stored before the summary so it can name them (the store is idempotent, so
  // the fallback storing them again gets the same ids).
  const removed = await removedEntries(context, messages, 'summarized');
  let references = storedReferencesLine(language, referencesOf(removed));
  const wrapperTokens = (): number =>
    counter.countMessage({ role: 'assistant', content: `${heading}\n\n\n${references}` });
  let maxTokens = targetTokens - wrapperTokens() - SUMMARY_SEAM_TOKENS;
  if (maxTokens < policy.minimumSummaryTokens && references !== '') {
    references = '';
    maxTokens = targetTokens - wrapperTokens() - SUMMARY_SEAM_TOKENS;
  }
  if (maxTokens < policy.minimumSummaryTokens) {
    return { report: { status: 'budget-too-small', maxTokens: Math.max(0, maxTokens) }, removed };
  }

  if (policy.signal?.aborted === true) {
    // The caller gave up while the originals were stored: no model call is started for nobody
    // (and a summarizer need not notice a signal that was aborted before it was handed over).
    return {
      report: { status: 'aborted', error: abortMessage(policy.signal.reason), maxTokens, durationMs: 0 },
      removed,
    };
  }
  const started = performance.now();
  const controller = new AbortController();
  let callerAborted = false;
  const onCallerAbort = (): void => {
    callerAborted = true;
    controller.abort(policy.signal?.reason);
  };
  policy.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The race makes the timeout hold even for a summarizer that ignores its signal.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('summary timed out'));
      reject(new Error(`the summary took longer than ${policy.timeoutMilliseconds} ms`));
    }, policy.timeoutMilliseconds);
  });
  const elapsed = (): number => Math.round((performance.now() - started) * 1000) / 1000;
  let text: string;
  try {
    text = await Promise.race([
      policy.summarizer.summarize(messages, { maxTokens, signal: controller.signal, language }),
      timeout,
    ]);
  } catch (error) {
    const status = timedOut ? 'timed-out' : callerAborted ? 'aborted' : 'failed';
    const message = error instanceof Error ? error.message : String(error);
    return { report: { status, error: message, maxTokens, durationMs: elapsed() }, removed };
  } finally {
    clearTimeout(timer);
    policy.signal?.removeEventListener('abort', onCallerAbort);
  }

  const summary = typeof text === 'string' ? text.trim() : '';
  if (summary === '') return { report: { status: 'empty', maxTokens, durationMs: elapsed() }, removed };
  const content = references === '' ? `${heading}\n${summary}` : `${heading}\n${summary}\n\n${references}`;
  const message: AssistantMessage = { role: 'assistant', content };
  const measured = counter.countMessageUpTo(message, targetTokens);
  const report: SummarizerReport = {
    status: 'succeeded',
    maxTokens,
    summaryTokens: measured.tokens,
    durationMs: elapsed(),
  };
  if (!measured.exact || measured.tokens > targetTokens || content.length > context.maxMessageCharacters) {
    return { report: { ...report, status: 'overshot' }, removed };
  }
  return { message, report, removed };
}

/** Older groups kept (whole or truncated) within a budget, newest first. */
interface KeptSuffix {
  kept: ChatMessage[];
  tokens: number;
  truncatedItems: TruncatedItem[];
  /** Index of the oldest kept group (`groups.length` when none). */
  firstKept: number;
}

async function keepNewestGroups(
  context: CompressionContext,
  groups: readonly ScratchpadGroup[],
  budgetTokens: number,
): Promise<KeptSuffix> {
  const kept: ChatMessage[][] = [];
  const truncatedItems: TruncatedItem[] = [];
  let used = 0;
  let firstKept = groups.length;
  for (let index = groups.length - 1; index >= 0; index--) {
    const group = groups[index]!;
    const room = budgetTokens - used;
    if (room <= 0) break;
    const whole = group.messages.every((message) => fitsAsIs(context, message, room));
    const wholeTokens = whole ? context.counter.countMessages(group.messages) : Number.POSITIVE_INFINITY;
    if (wholeTokens <= room) {
      kept.unshift(group.messages);
      used += wholeTokens;
      firstKept = index;
      continue;
    }
    if (group.results.length > 0) {
      const fit = await fitGroup(context, group, room, false);
      if (fit.fitted) {
        kept.unshift(fit.messages);
        truncatedItems.push(...fit.truncatedItems);
        used += fit.tokens;
        firstKept = index;
      }
    }
    break;
  }
  return { kept: kept.flat(), tokens: used, truncatedItems, firstKept };
}

/**
 * The deterministic fallback: walking from the newest older group back, keep whole groups while
 * they fit, truncate the first that does not (if its call and the short notices fit), and replace
 * everything older by a note naming the stored originals. When the note with the ids does not fit,
 * the kept part is made smaller once so that it does: the ids are what keeps removed data reachable.
 */
async function truncateOlder(
  context: CompressionContext,
  groups: readonly ScratchpadGroup[],
  targetTokens: number,
): Promise<Omit<OlderEntriesResult, 'summarizer'>> {
  const { counter, language } = context;
  const totalMessages = groups.reduce((sum, group) => sum + group.messages.length, 0);
  // Room for the shortest note, sized for the worst case (every older message removed).
  const shortNoteReserve = counter.countMessage({
    role: 'assistant',
    content: removedEntriesNote(language, totalMessages, ''),
  });

  const notesFor = async (suffix: KeptSuffix) => {
    const removed = groups.slice(0, suffix.firstKept).flatMap((group) => group.messages);
    const entries = await removedEntries(context, removed, 'dropped');
    const full: AssistantMessage = {
      role: 'assistant',
      content: removedEntriesNote(
        language,
        removed.length,
        storedReferencesLine(language, referencesOf(entries)),
      ),
    };
    const short: AssistantMessage = {
      role: 'assistant',
      content: removedEntriesNote(language, removed.length, ''),
    };
    return { removed, entries, full, short };
  };

  let suffix = await keepNewestGroups(context, groups, targetTokens - shortNoteReserve);
  let notes = await notesFor(suffix);
  const fullTokens = (): number => counter.countMessage(notes.full);
  if (notes.removed.length > 0 && fullTokens() > targetTokens - suffix.tokens) {
    const extra = fullTokens() - counter.countMessage(notes.short);
    const smaller = await keepNewestGroups(context, groups, targetTokens - shortNoteReserve - extra);
    const smallerNotes = await notesFor(smaller);
    if (counter.countMessage(smallerNotes.full) <= targetTokens - smaller.tokens) {
      suffix = smaller;
      notes = smallerNotes;
    }
  }

  const messages = [...suffix.kept];
  if (notes.removed.length > 0) {
    const room = targetTokens - suffix.tokens;
    const note = [notes.full, notes.short].find(
      (candidate) => counter.countMessageUpTo(candidate, room).tokens <= room,
    );
    if (note !== undefined) messages.unshift(note);
  }
  return {
    messages,
    outcome: 'truncated',
    truncatedItems: suffix.truncatedItems,
    removedEntries: notes.entries,
  };
}
