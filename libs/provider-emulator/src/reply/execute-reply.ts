import type { ServerResponse } from 'node:http';
import { sendJson, startEventStream, waitUnlessClosed } from '../http/respond';
import { writeEventStream } from '../http/write-event-stream';
import type { ErrorReply, ScriptedReply, StreamFault } from '../script/scripted-reply';
import { planAnswer, type AnswerPlan } from './reply-plan';
import type { RequestFacts } from './request-facts';

/** An error response ready to send. */
export interface RenderedError {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** How one provider turns plans and faults into its wire format; built per request. */
export interface ReplyRenderer {
  /** Headers every response to this request carries (e.g. the request id). */
  baseHeaders: Record<string, string>;
  /** Content type of non-streamed answers. */
  jsonContentType?: string;
  /** Content type of streamed answers. */
  streamContentType?: string;
  error(reply: ErrorReply): RenderedError;
  answerBody(plan: AnswerPlan): unknown;
  streamFrames(plan: AnswerPlan): string[];
  streamErrorFrame(fault: Extract<StreamFault, { kind: 'error-event' }>): string;
  malformedFrame(data: string): string;
}

/** Everything needed to answer one validated provider request. */
export interface ReplyExecution {
  response: ServerResponse;
  reply: ScriptedReply | undefined;
  stream: boolean;
  facts: RequestFacts;
  defaultChunkSize: number;
  renderer: ReplyRenderer;
}

/** Sends the scripted (or default) reply: delay, then error, hang, JSON answer or event stream. */
export async function executeReply(execution: ReplyExecution): Promise<void> {
  const { response, reply, renderer } = execution;
  if (reply?.delayMs !== undefined && !(await waitUnlessClosed(response, reply.delayMs))) return;
  if (reply?.kind === 'hang') return; // Closed by the client's abort or by emulator.close().
  if (reply?.kind === 'error') {
    const rendered = renderer.error(reply);
    sendJson(response, rendered.status, rendered.body, {
      ...renderer.baseHeaders,
      ...rendered.headers,
      ...reply.headers,
    });
    return;
  }
  const plan = planAnswer(reply, execution.facts, execution.defaultChunkSize);
  const headers = { ...renderer.baseHeaders, ...plan.headers };
  if (!execution.stream) {
    sendJson(response, 200, renderer.answerBody(plan), headers, renderer.jsonContentType);
    return;
  }
  const immediate = plan.streamFault === undefined && plan.chunkDelayMs <= 0;
  startEventStream(response, headers, renderer.streamContentType, !immediate);
  await writeEventStream(response, {
    frames: renderer.streamFrames(plan),
    chunkDelayMs: plan.chunkDelayMs,
    fault: plan.streamFault,
    errorFrame: (fault) => renderer.streamErrorFrame(fault),
    malformedFrame: (data) => renderer.malformedFrame(data),
  });
}
