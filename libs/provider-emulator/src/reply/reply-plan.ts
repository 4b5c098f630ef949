import { jsonFromSchema } from '../json-from-schema';
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
      text =
        resolved.text ??
        (resolved.value !== undefined ? JSON.stringify(resolved.value) : jsonTextFor(facts.json));
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
    headers: resolved.headers ?? {},
  };
}

function jsonTextFor(json: JsonRequest): string {
  switch (json.kind) {
    case 'schema':
      return JSON.stringify(jsonFromSchema(json.schema));
    case 'enum-text': {
      const value = jsonFromSchema(json.schema);
      return typeof value === 'string' ? value : JSON.stringify(value);
    }
    case 'object':
    case 'none':
      return smallJsonObject;
  }
}
