import type { ProviderName } from '@agentdesk/provider-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageJson } from '@agentdesk/api-contract';
import { startReliabilityApi, type ReliabilityApi, type TurnResponse } from './support/reliability-api';
import {
  largeResultId,
  largeResultText,
  planTurn,
  repliesCount,
  seededRandom,
  type PlannedTurn,
  type TurnKind,
} from './support/soak-plan';
import { streamedText, textOf } from './support/turn-checks';

/**
 * A soak of 1,000 turns over HTTP (`app.inject`, SQLite) on 24 sessions of the three providers, four
 * sessions' turns in flight at a time (each session's turns in order), where 20% of the turns carry injected provider faults chosen by
 * a seeded PRNG (see `support/soak-plan.ts`). Every session has its own model name, so each scripted
 * reply can only answer its own session's requests.
 *
 * Per turn: the HTTP answer matches the planned outcome, and the upstream attempts are exactly the
 * replies queued for it (none left over, none answered by the emulator's default reply).
 * At the end, read back through the API: every user message sent is stored exactly once (0 lost,
 * 0 duplicated) and in order; every assistant tool call has exactly one tool result after it and every
 * tool result has its call (0 orphans), and the full result of each call is stored; no message is
 * left pending and no session is left leased; complete and failed turns are exactly the planned ones.
 */

const seed = 20_260_101;
const totalTurns = 1000;
const sessionsPerProvider = 8;
const concurrency = 4;
const providers: readonly ProviderName[] = ['openai', 'anthropic', 'gemini'];
const modelPrefix: Readonly<Record<ProviderName, string>> = {
  openai: 'gpt',
  anthropic: 'claude',
  gemini: 'gemini',
};

interface SoakSession {
  readonly index: number;
  readonly id: string;
  readonly provider: ProviderName;
  readonly model: string;
  /** Turns sent, in order, with the exact user message text. */
  readonly turns: Array<{ content: string; plan: PlannedTurn; streamed: string }>;
}

/** The outcome the HTTP answer reports. */
function answeredOutcome(response: TurnResponse, plan: PlannedTurn): 'complete' | 'failed' | string {
  if (plan.mode === 'json') {
    if (response.statusCode === 200) return (response.response.json() as { status: string }).status;
    return response.statusCode === 502 ? 'failed' : `HTTP ${response.statusCode}`;
  }
  const last = response.events.at(-1)?.event;
  return last === 'turn-end'
    ? 'complete'
    : last === 'error'
      ? 'failed'
      : `SSE ended with ${last ?? 'nothing'}`;
}

/** Splits a transcript into turns, each starting at a user message. */
function turnsOf(transcript: readonly MessageJson[]): MessageJson[][] {
  const turns: MessageJson[][] = [];
  for (const message of transcript) {
    if (message.role === 'user') turns.push([message]);
    else turns.at(-1)?.push(message);
  }
  return turns;
}

describe('soak: 1,000 turns with 20% injected provider faults', () => {
  let api: ReliabilityApi;

  beforeAll(async () => {
    api = await startReliabilityApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('loses no user message and leaves no orphaned tool call or result', async () => {
    const started = performance.now();
    const random = seededRandom(seed);
    const sessions: SoakSession[] = [];
    for (let index = 0; index < sessionsPerProvider * providers.length; index++) {
      const provider = providers[index % providers.length]!;
      const model = `${modelPrefix[provider]}-soak-${index}`;
      const id = await api.createSession(model, `soak ${index}`);
      await api.test.api.repositories.turnStore.keepToolResult(api.user.id, {
        sessionId: id,
        toolCallId: largeResultId,
        content: largeResultText(index),
      });
      sessions.push({ index, id, provider, model, turns: [] });
    }

    const problems: string[] = [];
    const seenRequests = new Set<string>();
    let attempts = 0;
    let streamedPartials = 0;
    // Every turn is planned up front, in order, so the seed alone decides the whole soak: turn n goes
    // to session n mod 24; each worker runs the turns of every `concurrency`-th session, in order.
    const planned = Array.from({ length: totalTurns }, (_, number) => {
      const session = sessions[number % sessions.length]!;
      const content = `soak turn ${number} on session ${session.index}`;
      return { session, content, plan: planTurn(random, session.provider, content) };
    });
    const worker = async (workerIndex: number) => {
      for (const { session, content, plan } of planned.filter(
        (turn) => turn.session.index % concurrency === workerIndex,
      )) {
        api.script(...plan.replies.map((reply) => ({ ...reply, match: { model: session.model } })));
        const response = await api.send(session.id, content, plan.mode);
        session.turns.push({ content, plan, streamed: streamedText(response) });

        const outcome = answeredOutcome(response, plan);
        if (outcome !== plan.outcome)
          problems.push(
            `${content} (${plan.kind}, ${plan.mode}): answered ${outcome}, planned ${plan.outcome}`,
          );
        const fresh = api.test.emulator.requests.filter(
          (request) => request.model === session.model && !seenRequests.has(request.requestId),
        );
        for (const request of fresh) seenRequests.add(request.requestId);
        attempts += fresh.length;
        if (fresh.length !== plan.attempts)
          problems.push(
            `${content} (${plan.kind}): ${fresh.length} upstream attempts, planned ${plan.attempts}`,
          );
        const leftOver = api.test.emulator.pendingReplies.filter(
          (reply) => reply.match?.model === session.model,
        );
        if (leftOver.length)
          problems.push(`${content} (${plan.kind}): ${leftOver.length} scripted replies never requested`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index)));

    // Read everything back through the API.
    let storedUserMessages = 0;
    let lost = 0;
    let duplicated = 0;
    let orphanCalls = 0;
    let orphanResults = 0;
    let toolCalls = 0;
    let pendingMessages = 0;
    let missingFullResults = 0;
    let compressions = 0;
    const outcomes = { complete: 0, failed: 0 };
    for (const session of sessions) {
      const transcript = await api.transcript(session.id);
      const userTexts = transcript.filter((message) => message.role === 'user').map(textOf);
      storedUserMessages += userTexts.length;
      for (const { content } of session.turns) {
        const copies = userTexts.filter((text) => text === content).length;
        if (copies === 0) lost++;
        if (copies > 1) duplicated += copies - 1;
      }
      if (
        userTexts.length !== session.turns.length ||
        userTexts.some((text, index) => text !== session.turns[index]?.content)
      ) {
        problems.push(`session ${session.index}: user messages stored out of order or extra`);
      }
      pendingMessages += transcript.filter((message) => message.status === 'pending').length;
      compressions += transcript.filter((message) => message.compressionEvents?.length).length;

      // Pairing: each call answered by exactly one later tool message; each tool message answers an earlier call.
      const openCalls = new Set<string>();
      const answered = new Map<string, number>();
      for (const message of transcript) {
        if (message.role === 'assistant') {
          for (const call of message.toolCalls ?? []) {
            const id = String(call['id']);
            if (answered.has(id) || openCalls.has(id))
              problems.push(`session ${session.index}: tool call id ${id} used twice`);
            openCalls.add(id);
            answered.set(id, 0);
            toolCalls++;
          }
        } else if (message.role === 'tool') {
          const id = message.toolCallId ?? '';
          if (!answered.has(id)) orphanResults++;
          else answered.set(id, answered.get(id)! + 1);
          openCalls.delete(id);
        }
      }
      for (const [id, count] of answered) {
        if (count !== 1) orphanCalls++;
        const full = await api.test.api.repositories.transcript
          .getToolResultForOwner(api.user.id, session.id, id)
          .catch(() => undefined);
        if (!full || !full.content.includes(`[read_tool_result "${largeResultId}"`)) missingFullResults++;
      }

      const turns = turnsOf(transcript);
      turns.forEach((messages, index) => {
        const planned = session.turns[index]?.plan;
        const streamed = session.turns[index]?.streamed ?? '';
        const status = messages.some((message) => message.status === 'failed') ? 'failed' : 'complete';
        outcomes[status]++;
        if (!planned) return;
        if (status !== planned.outcome)
          problems.push(`${textOf(messages[0])}: stored as ${status}, planned ${planned.outcome}`);
        const calls = messages.flatMap((message) => message.toolCalls ?? []).length;
        if (calls !== planned.toolCalls)
          problems.push(`${textOf(messages[0])}: ${calls} tool calls stored, planned ${planned.toolCalls}`);
        const last = messages.at(-1)!;
        if (
          planned.outcome === 'complete' &&
          (last.role !== 'assistant' || textOf(last) !== planned.answer)
        ) {
          problems.push(`${textOf(messages[0])}: final answer ${JSON.stringify(textOf(last))}`);
        }
        if (
          planned.outcome === 'failed' &&
          (last.role !== 'assistant' || last.status !== 'failed' || !last.error?.['provider'])
        ) {
          problems.push(
            `${textOf(messages[0])}: a failed turn must end with the failed assistant message and its provider error`,
          );
        }
        // A stream broken mid-way keeps exactly the text the client was sent.
        if (planned.kind === 'stream-fault' && streamed) {
          streamedPartials++;
          if (textOf(last) !== streamed)
            problems.push(
              `${textOf(messages[0])}: kept ${JSON.stringify(textOf(last))}, streamed ${JSON.stringify(streamed)}`,
            );
        }
      });
    }
    const leased = await api.test.api.database.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('active_turn_id', 'is not', null)
      .executeTakeFirstOrThrow();

    const plans = sessions.flatMap((session) => session.turns.map((turn) => turn.plan));
    const count = (predicate: (plan: PlannedTurn) => boolean) => plans.filter(predicate).length;
    const byKind = Object.fromEntries(
      (
        [
          'answer',
          'tool-calls',
          'retry-recovers',
          'retry-exhausted',
          'not-retryable',
          'stream-fault',
          'tool-calls-then-fault',
        ] satisfies TurnKind[]
      ).map((kind) => [kind, count((plan) => plan.kind === kind)]),
    );
    const faultTurns = count((plan) => plan.faultyReplies > 0);
    const replies = plans.reduce((sum, plan) => sum + repliesCount(plan.replies), 0);
    const faultyReplies = plans.reduce((sum, plan) => sum + plan.faultyReplies, 0);
    const plannedToolCalls = plans.reduce((sum, plan) => sum + plan.toolCalls, 0);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `soak: ${plans.length} turns (${count((plan) => plan.mode === 'sse')} SSE, ${count((plan) => plan.mode === 'json')} JSON) on ${sessions.length} sessions ` +
        `(openai/anthropic/gemini), ${concurrency} in flight, seed ${seed}; faults in ${faultTurns} turns (${((faultTurns / plans.length) * 100).toFixed(1)}%), ` +
        `${faultyReplies}/${replies} provider replies faulty (${((faultyReplies / replies) * 100).toFixed(1)}%); ${JSON.stringify(byKind)}; ` +
        `turns complete ${outcomes.complete}, failed ${outcomes.failed} (planned ${count((plan) => plan.outcome === 'complete')}/${count((plan) => plan.outcome === 'failed')}); ` +
        `upstream attempts ${attempts} (planned ${replies}); user messages sent ${plans.length}, stored ${storedUserMessages}, lost ${lost}, duplicated ${duplicated}; ` +
        `tool calls ${toolCalls} (planned ${plannedToolCalls}), orphaned calls ${orphanCalls}, orphaned results ${orphanResults}, full results missing ${missingFullResults}; ` +
        `partial streamed texts kept ${streamedPartials}; scratchpad compressions ${compressions}; pending ${pendingMessages}, leased ${Number(leased.count)}; ${problems.length} problems; ${seconds.toFixed(1)} s`,
    );

    expect(problems.slice(0, 20)).toEqual([]);
    expect(plans).toHaveLength(totalTurns);
    expect(faultTurns / plans.length).toBeGreaterThan(0.17);
    expect(faultTurns / plans.length).toBeLessThan(0.23);
    expect({ lost, duplicated, storedUserMessages }).toEqual({
      lost: 0,
      duplicated: 0,
      storedUserMessages: totalTurns,
    });
    expect({ orphanCalls, orphanResults, missingFullResults }).toEqual({
      orphanCalls: 0,
      orphanResults: 0,
      missingFullResults: 0,
    });
    expect(toolCalls).toBe(plannedToolCalls);
    expect(toolCalls).toBeGreaterThan(0);
    expect(streamedPartials).toBeGreaterThan(0);
    expect(outcomes).toEqual({
      complete: count((plan) => plan.outcome === 'complete'),
      failed: count((plan) => plan.outcome === 'failed'),
    });
    expect(attempts).toBe(replies);
    expect({ pendingMessages, leased: Number(leased.count) }).toEqual({ pendingMessages: 0, leased: 0 });
  }, 300_000);
});
