import type { TurnError } from '@agentdesk/api-contract';
import type { ScratchpadCompressor } from '@agentdesk/compressor';
import type { ChatMessage, ToolCall } from '@agentdesk/providers';
import type { SessionToolResultStore } from './session-tool-result-store';
import type { TurnEventSink } from './turn-events';
import { TurnFailure } from './turn-failure';
import type { TurnTranscript } from './turn-transcript';
import type { AgentTurnRunnerDependencies, TurnInput } from './turn-types';

/** How a tool call ended: its result as the model's next call sees it, or the turn's error. */
export type ToolStepOutcome =
  { readonly ok: true; readonly chat: ChatMessage } | { readonly ok: false; readonly turnError: TurnError };

/**
 * A turn's tool calls: run the tool, keep its full output aside (the compressor's store, which the
 * model can page with `read_tool_result`), store a copy bounded for later turns' context, and send
 * a `tool-result` event. A tool that throws ends the turn: a failed tool message records why.
 */
export class ToolStep {
  constructor(
    private readonly dependencies: AgentTurnRunnerDependencies,
    private readonly input: TurnInput,
    private readonly store: SessionToolResultStore,
    private readonly compressor: ScratchpadCompressor,
    private readonly transcript: TurnTranscript,
    private readonly emit: TurnEventSink,
  ) {}

  async run(toolCall: ToolCall): Promise<ToolStepOutcome> {
    try {
      return { ok: true, chat: await this.runTool(toolCall) };
    } catch (error) {
      const turnError: TurnError =
        error instanceof TurnFailure
          ? error.turnError
          : { code: 'tool_failed', message: `Tool ${toolCall.name} failed: ${describe(error)}` };
      await this.transcript.recordToolFailure(toolCall, turnError);
      return { ok: false, turnError };
    }
  }

  private async runTool(toolCall: ToolCall): Promise<ChatMessage> {
    const { tools, settings } = this.dependencies;
    const { input } = this;
    const output = await tools.execute(toolCall.name, toolCall.arguments, {
      ownerUserId: input.ownerUserId,
      sessionId: input.sessionId,
      toolResults: this.store,
      signal: input.signal,
    });
    const toolChat: ChatMessage = {
      role: 'tool',
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      content: output.content,
      ...(output.isError && { isError: true }),
    };
    const bounded = await this.compressor.compress({
      entries: [{ role: 'assistant', content: '', toolCalls: [toolCall] }, toolChat],
      budgetTokens: settings.storedToolResultTokens,
    });
    const boundedTool = bounded.messages.find((message) => message.role === 'tool');
    const storedText =
      boundedTool && boundedTool.role === 'tool' ? textOfTool(boundedTool.content) : output.content;
    const stored = await this.transcript.appendToolResult(toolCall, storedText, output.isError);
    await this.store.put({ toolCallId: toolCall.id, toolName: toolCall.name, content: output.content });
    this.emit({
      type: 'tool-result',
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      isError: output.isError,
      characters: output.content.length,
      preview: output.content.slice(0, 500),
    });
    this.transcript.keep(stored);
    return toolChat;
  }
}

function textOfTool(content: string | readonly { type: 'text'; text: string }[]): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
