import type { ToolDefinition } from '@agentdesk/providers';
import type { AgentTool, ToolContext, ToolOutput } from './agent-tool';

/** The tools of an agent turn, by name. */
export class ToolRegistry {
  readonly #tools: ReadonlyMap<string, AgentTool>;

  constructor(tools: readonly AgentTool[]) {
    const byName = new Map<string, AgentTool>();
    for (const tool of tools) {
      if (byName.has(tool.definition.name)) throw new Error(`Two tools are named ${tool.definition.name}`);
      byName.set(tool.definition.name, tool);
    }
    this.#tools = byName;
  }

  definitions(): ToolDefinition[] {
    return [...this.#tools.values()].map((tool) => tool.definition);
  }

  /** Runs a call. An unknown name is the model's mistake: it gets an error result, not a crash. */
  async execute(name: string, argumentsText: string, context: ToolContext): Promise<ToolOutput> {
    const tool = this.#tools.get(name);
    if (!tool) {
      return {
        content: `Unknown tool "${name}". Available tools: ${[...this.#tools.keys()].join(', ')}.`,
        isError: true,
      };
    }
    return tool.execute(argumentsText, context);
  }
}
