import { chunkText } from '../reply/chunk-text';
import type { AnswerPlan } from '../reply/reply-plan';
import type { ResolvedUsage } from '../reply/usage';

/** Request-level values repeated in every response chunk. */
export interface ResponseIdentity {
  responseId: string;
  modelVersion: string;
}

export function geminiFinishReason(plan: AnswerPlan): string {
  if (plan.rawFinishReason !== undefined) return plan.rawFinishReason;
  switch (plan.finish) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
    case 'refusal':
      return 'SAFETY';
    case 'stop':
    case 'tool-calls':
      return 'STOP';
  }
}

/**
 * Full `usageMetadata`: `candidatesTokenCount` excludes thoughts, and the total is
 * prompt + candidates + thoughts. Zero thought and cache counts are left out, as the API does.
 */
export function usageMetadata(usage: ResolvedUsage): Record<string, unknown> {
  const thoughts = Math.min(usage.reasoningTokens, usage.outputTokens);
  const metadata: Record<string, unknown> = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens - thoughts,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.inputTokens }],
  };
  if (usage.cachedInputTokens > 0) {
    metadata.cachedContentTokenCount = usage.cachedInputTokens;
    metadata.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: usage.cachedInputTokens }];
  }
  if (thoughts > 0) metadata.thoughtsTokenCount = thoughts;
  return metadata;
}

/** The partial usage intermediate stream chunks carry: prompt counts only. */
export function promptOnlyUsage(usage: ResolvedUsage): Record<string, unknown> {
  return {
    promptTokenCount: usage.inputTokens,
    totalTokenCount: usage.inputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.inputTokens }],
  };
}

function functionCallParts(plan: AnswerPlan): Array<Record<string, unknown>> {
  return plan.toolCalls.map((call) => ({ functionCall: { name: call.name, args: call.arguments } }));
}

function refusalCandidate(plan: AnswerPlan): Record<string, unknown> {
  return {
    finishReason: geminiFinishReason(plan),
    index: 0,
    finishMessage: plan.refusal,
    safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }],
  };
}

function responseChunk(
  candidate: Record<string, unknown>,
  usage: Record<string, unknown>,
  identity: ResponseIdentity,
): Record<string, unknown> {
  return {
    candidates: [candidate],
    usageMetadata: usage,
    modelVersion: identity.modelVersion,
    responseId: identity.responseId,
  };
}

/** The `GenerateContentResponse` of a non-streamed answer. */
export function responseBody(plan: AnswerPlan, identity: ResponseIdentity): Record<string, unknown> {
  if (plan.refusal !== undefined)
    return responseChunk(refusalCandidate(plan), usageMetadata(plan.usage), identity);
  const parts = [...(plan.text === '' ? [] : [{ text: plan.text }]), ...functionCallParts(plan)];
  return responseChunk(
    { content: { parts, role: 'model' }, finishReason: geminiFinishReason(plan), index: 0 },
    usageMetadata(plan.usage),
    identity,
  );
}

/**
 * The chunks of a streamed answer: one part per chunk (text pieces, then each function call
 * whole), and only the last chunk with `finishReason` and full usage (earlier ones carry prompt
 * counts). One part per chunk matters: the legacy SDK's aggregation reuses one object across the
 * parts of a chunk, so several parts in one chunk come out duplicated in `response`.
 */
export function responseChunks(plan: AnswerPlan, identity: ResponseIdentity): Array<Record<string, unknown>> {
  if (plan.refusal !== undefined)
    return [responseChunk(refusalCandidate(plan), usageMetadata(plan.usage), identity)];
  const parts: Array<Record<string, unknown>> = [
    ...chunkText(plan.text, plan.chunkSize).map((text) => ({ text })),
    ...functionCallParts(plan),
  ];
  if (parts.length === 0) parts.push({ text: '' });
  return parts.map((part, index) =>
    index < parts.length - 1
      ? responseChunk(
          { content: { parts: [part], role: 'model' }, index: 0 },
          promptOnlyUsage(plan.usage),
          identity,
        )
      : responseChunk(
          { content: { parts: [part], role: 'model' }, finishReason: geminiFinishReason(plan), index: 0 },
          usageMetadata(plan.usage),
          identity,
        ),
  );
}
