import { defineTool, type AgentTool } from '@agentdesk/agent-tools';
import { z } from 'zod';
import { type SandboxConfig } from '../config/sandbox-config';
import { type WorkspaceEntry } from '../sandboxes/workspace-files';
import { type SandboxResolver } from './sandbox-resolver';
import { sandboxErrorOutput } from './tool-error-output';

const workspacePath = z
  .string()
  .min(1)
  .max(4096)
  .describe('A path relative to /workspace (an absolute path must lie inside /workspace)');

/** `read_file`: one text file of the workspace. */
export function readFileTool(sandboxFor: SandboxResolver): AgentTool {
  return defineTool({
    name: 'read_file',
    description: 'Reads a UTF-8 text file from this session’s sandbox workspace (/workspace).',
    arguments: z.object({ path: workspacePath }).strict(),
    async execute({ path }, context) {
      try {
        const file = await sandboxFor(context).readFile(path);
        if (file.content.includes(0)) {
          return {
            content: `read_file: ${file.path} is a binary file (${file.content.length} bytes); inspect it with run_command (e.g. od, base64).`,
            isError: true,
          };
        }
        return { content: file.content.toString('utf8'), isError: false };
      } catch (error) {
        return sandboxErrorOutput('read_file', error);
      }
    },
  });
}

/** `write_file`: creates or replaces a file, with its parent directories. */
export function writeFileTool(config: SandboxConfig, sandboxFor: SandboxResolver): AgentTool {
  return defineTool({
    name: 'write_file',
    description:
      'Writes a UTF-8 text file into this session’s sandbox workspace (/workspace), creating parent ' +
      'directories and replacing an existing file.',
    arguments: z
      .object({
        path: workspacePath,
        content: z.string().max(config.exec.maxFileBytes).describe('The whole new content of the file'),
      })
      .strict(),
    async execute({ path, content }, context) {
      try {
        const written = await sandboxFor(context).writeFile(path, content);
        return { content: `wrote ${written.bytes} bytes to ${written.path}`, isError: false };
      } catch (error) {
        return sandboxErrorOutput('write_file', error);
      }
    },
  });
}

const maxListedEntries = 1000;

/** `list_files`: a directory of the workspace, one level or the whole tree. */
export function listFilesTool(sandboxFor: SandboxResolver): AgentTool {
  return defineTool({
    name: 'list_files',
    description:
      'Lists a directory of this session’s sandbox workspace (/workspace): one line per entry with its ' +
      'type and size. `recursive` lists the whole tree.',
    arguments: z
      .object({
        path: workspacePath
          .optional()
          .describe('Directory relative to /workspace; default: /workspace itself'),
        recursive: z.boolean().optional().describe('List every level below the directory'),
      })
      .strict(),
    async execute({ path, recursive }, context) {
      try {
        const listing = await sandboxFor(context).listFiles({
          ...(path === undefined ? {} : { path }),
          recursive: recursive ?? false,
          maxEntries: maxListedEntries,
        });
        if (listing.entries.length === 0) return { content: '(empty directory)', isError: false };
        const lines = listing.entries.map(describeEntry);
        if (listing.truncated) lines.push(`… more than ${maxListedEntries} entries; list a subdirectory`);
        return { content: lines.join('\n'), isError: false };
      } catch (error) {
        return sandboxErrorOutput('list_files', error);
      }
    },
  });
}

function describeEntry(entry: WorkspaceEntry): string {
  switch (entry.type) {
    case 'directory':
      return `dir   ${entry.path}/`;
    case 'file':
      return `file  ${entry.path}  (${entry.size} bytes)`;
    case 'symlink':
      return `link  ${entry.path}`;
    case 'other':
      return `other ${entry.path}`;
  }
}
