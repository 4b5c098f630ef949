import { z } from 'zod';
import type { AgentTool, ToolContext, ToolOutput } from './agent-tool';

/** A tool described once: its arguments as a zod schema, from which the JSON Schema is derived. */
export interface ToolSpecification<Schema extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  /** Validates the model's arguments; unknown fields should be refused (`.strict()`). */
  readonly arguments: Schema;
  execute(argumentsValue: z.output<Schema>, context: ToolContext): Promise<ToolOutput>;
}

/**
 * Builds an `AgentTool` from a zod schema: the model sees the schema as JSON Schema, and arguments
 * that are not JSON or do not match get an error result naming each field and what is wrong, so
 * the model can correct the call instead of the turn failing.
 */
export function defineTool<Schema extends z.ZodType>(specification: ToolSpecification<Schema>): AgentTool {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(specification.arguments, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return {
    definition: { name: specification.name, description: specification.description, parameters },
    async execute(argumentsText, context) {
      const parsed = parseToolArguments(specification.name, argumentsText, specification.arguments);
      if (!parsed.success) return parsed.output;
      return specification.execute(parsed.value, context);
    },
  };
}

/** Parses and validates a tool call's arguments text; a failure is the error output for the model. */
export function parseToolArguments<Schema extends z.ZodType>(
  toolName: string,
  argumentsText: string,
  schema: Schema,
): { success: true; value: z.output<Schema> } | { success: false; output: ToolOutput } {
  let json: unknown;
  try {
    json = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
  } catch {
    return {
      success: false,
      output: {
        content: `${toolName}: the arguments are not valid JSON; send one JSON object.`,
        isError: true,
      },
    };
  }
  const result = schema.safeParse(json);
  if (result.success) return { success: true, value: result.data };
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    return `${field}: ${issue.message}`;
  });
  return {
    success: false,
    output: { content: `${toolName}: invalid arguments — ${problems.join('; ')}.`, isError: true },
  };
}
