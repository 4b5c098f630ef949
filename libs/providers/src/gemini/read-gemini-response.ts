import type { EnhancedGenerateContentResponse, GenerateContentResponse } from '@google/generative-ai';
import type { ToolCall } from '../types/messages';
import { geminiToolCallId } from './gemini-tool-call-id';

export interface GeminiAnswerParts {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string | undefined;
  /** Gemini's own words on why it stopped (e.g. a safety block), when it gives them. */
  finishMessage: string | undefined;
  responseId: string | undefined;
}

/**
 * Reads the first candidate directly: the SDK's `text()` throws on safety stops, and a blocked answer
 * must come back as a `content-filter` finish, not an exception. Thought parts are not answer text.
 */
export function readGeminiResponse(
  response: GenerateContentResponse | EnhancedGenerateContentResponse,
  toolCallOffset = 0,
): GeminiAnswerParts {
  const withId = response as { responseId?: string };
  const candidate = response.candidates?.[0];
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    if ((part as { thought?: boolean }).thought) continue;
    if (typeof part.text === 'string') text += part.text;
    if (part.functionCall) {
      const argumentsText = JSON.stringify(part.functionCall.args ?? {});
      const index = toolCallOffset + toolCalls.length;
      toolCalls.push({
        id: geminiToolCallId(withId.responseId, index, part.functionCall.name, argumentsText),
        name: part.functionCall.name,
        arguments: argumentsText,
      });
    }
  }
  return {
    text,
    toolCalls,
    finishReason: candidate?.finishReason ?? (response.promptFeedback?.blockReason ? 'SAFETY' : undefined),
    finishMessage: candidate?.finishMessage,
    responseId: withId.responseId,
  };
}
