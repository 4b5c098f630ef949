import { jsonFromSchema } from '../json-from-schema';
import { structuredAnswer, type VariationRequest } from '../variation/structured-variation';
import type { VariationKind } from '../variation/variation-settings';
import type { AnswerReply, ScriptedFinishReason, StreamFault } from '../script/scripted-reply';
import { defaultAnswer } from './default-answer';
import type { JsonRequest, RequestFacts } from './request-facts';
import { resolveUsage, type ResolvedUsage } from './usage';

/** A tool call ready to render; `id` is filled by the provider renderer when not scripted. */
export interface PlannedToolCall {
  id: string | undefined;
  name: string;
  arguments: Record<string, unknown>;
  argumentsJson: string;
}

/** Provider-neutral description of one model answer. */
export interface AnswerPlan {
  text: string;
  /** Set for refusals; `text` is then empty. */
  refusal: string | undefined;
  toolCalls: PlannedToolCall[];
  finish: ScriptedFinishReason | 'tool-calls' | 'refusal';
  /** Verbatim provider finish reason, when scripted. */
  rawFinishReason: string | undefined;
  usage: ResolvedUsage;
  chunkSize: number;
  chunkDelayMs: number;
  streamFault: StreamFault | undefined;
  headers: Record<string, string>;
}

const smallJsonObject = '{"result":"ok"}';

/** Names the kind of a varied (deliberately invalid) answer, for whoever debugs a failed case. */
export const variationHeader = 'x-emulator-variation';

/** Turns a scripted answer (or none: the default model behaviour) into a plan every provider can render. */
export function planAnswer(
  reply: AnswerReply | undefined,
  facts: RequestFacts,
  defaultChunkSize: number,
): AnswerPlan {
  const resolved: AnswerReply = reply ?? defaultAnswer(facts.json, facts.conversation);
  let text = '';
  let refusal: string | undefined;
  let toolCalls: PlannedToolCall[] = [];
  let finish: AnswerPlan['finish'] = resolved.finishReason ?? 'stop';
  const headers = { ...resolved.headers };
  switch (resolved.kind) {
    case 'text':
      text = resolved.text;
      break;
    case 'refusal':
      refusal = resolved.refusal;
      finish = resolved.finishReason ?? 'refusal';
      break;
    case 'tool-calls':
      text = resolved.text ?? '';
      toolCalls = resolved.toolCalls.map((call) => ({
        id: call.id,
        name: call.name,
        arguments: call.arguments,
        argumentsJson: JSON.stringify(call.arguments),
      }));
      finish = resolved.finishReason ?? 'tool-calls';
      break;
    case 'json':
      if (resolved.text !== undefined) text = resolved.text;
      else if (resolved.value !== undefined) text = JSON.stringify(resolved.value);
      else {
        // Scripted replies are what a test asked for: only the default model's answers vary.
        const generated = jsonTextFor(facts.json, reply === undefined ? facts.variation : undefined);
        text = generated.text;
        if (generated.variedKind !== undefined) headers[variationHeader] = generated.variedKind;
      }
      break;
  }
  const outputCharacters =
    text.length +
    (refusal?.length ?? 0) +
    toolCalls.reduce((sum, call) => sum + call.name.length + call.argumentsJson.length, 0);
  return {
    text,
    refusal,
    toolCalls,
    finish,
    rawFinishReason: resolved.rawFinishReason,
    usage: resolveUsage(resolved.usage, facts.requestCharacters, outputCharacters),
    chunkSize: resolved.chunkSize ?? defaultChunkSize,
    chunkDelayMs: resolved.chunkDelayMs ?? 0,
    streamFault: resolved.streamFault,
    headers,
  };
}

function jsonTextFor(
  json: JsonRequest,
  variation: VariationRequest | undefined,
): { text: string; variedKind?: VariationKind } {
  switch (json.kind) {
    case 'schema': {
      const answer = structuredAnswer(json.schema, variation);
      return { text: answer.text, variedKind: answer.varied?.kind };
    }
    case 'enum-text': {
      const value = jsonFromSchema(json.schema);
      return { text: typeof value === 'string' ? value : JSON.stringify(value) };
    }
    case 'object':
    case 'none':
      return { text: smallJsonObject };
  }
}
