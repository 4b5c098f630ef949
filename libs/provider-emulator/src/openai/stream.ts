import { chunkText } from '../reply/chunk-text';
import type { AnswerPlan } from '../reply/reply-plan';
import { openAiFinishReason, openAiUsage, toolCallIds, type CompletionIdentity } from './completion-body';

/** One SSE event as OpenAI sends it: a `data:` line, no `event:` line. */
export function openAiFrame(data: string): string {
  return `data: ${data}\n\n`;
}

/**
 * The `chat.completion.chunk` events of a streamed answer: a role chunk, content (or refusal)
 * deltas, tool-call deltas (header with id and name, then argument pieces), a finish chunk, the
 * usage chunk with `choices: []` when `include_usage` was asked for, and `[DONE]`.
 */
export function completionFrames(
  plan: AnswerPlan,
  identity: CompletionIdentity,
  includeUsage: boolean,
): string[] {
  const frames: string[] = [];
  const push = (delta: Record<string, unknown>, finishReason: string | null = null): void => {
    const chunk: Record<string, unknown> = {
      id: identity.id,
      object: 'chat.completion.chunk',
      created: identity.created,
      model: identity.model,
      service_tier: 'default',
      system_fingerprint: 'fp_emulator',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    // With include_usage every chunk carries `usage: null` until the final usage chunk.
    if (includeUsage) chunk.usage = null;
    frames.push(openAiFrame(JSON.stringify(chunk)));
  };

  const hasText = plan.text !== '' || (plan.refusal === undefined && plan.toolCalls.length === 0);
  push({ role: 'assistant', content: hasText ? '' : null, refusal: null });
  for (const piece of chunkText(plan.text, plan.chunkSize)) push({ content: piece });
  for (const piece of chunkText(plan.refusal ?? '', plan.chunkSize)) push({ refusal: piece });
  const ids = toolCallIds(plan);
  plan.toolCalls.forEach((call, index) => {
    push({
      tool_calls: [{ index, id: ids[index], type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const piece of chunkText(call.argumentsJson, plan.chunkSize)) {
      push({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  push({}, openAiFinishReason(plan));
  if (includeUsage) {
    frames.push(
      openAiFrame(
        JSON.stringify({
          id: identity.id,
          object: 'chat.completion.chunk',
          created: identity.created,
          model: identity.model,
          service_tier: 'default',
          system_fingerprint: 'fp_emulator',
          choices: [],
          usage: openAiUsage(plan.usage),
        }),
      ),
    );
  }
  frames.push(openAiFrame('[DONE]'));
  return frames;
}
