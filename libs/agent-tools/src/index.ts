// The tool contract of an agent turn: what a tool is, what it runs with, and the registry the turn
// runner calls. Apps and libs (the sandbox) implement tools against it; it imports no app.
export type { AgentTool, ToolContext, ToolOutput } from './agent-tool';
export { ToolRegistry } from './tool-registry';
export { defineTool, parseToolArguments, type ToolSpecification } from './define-tool';
export { builtInTools, readToolResultAgentTool } from './read-tool-result-tool';
