/**
 * Run with tsx by the global setup (a child process: it opens the API's SQLite file with the storage
 * library, the way the API does). Writes what HTTP cannot make quickly: a 2,000-message transcript
 * and a huge stored tool result for the agent to read. Prints what it wrote as JSON.
 */
// The e2e setup runs in Node, never in the browser bundle: seeding through the storage lib is the point.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createRepositories, openDatabase } from '@agentdesk/storage';

interface SeedDatabaseInput {
  databaseUrl: string;
  ownerUserId: string;
  longSessionId: string;
  longSessionMessages: number;
  reportSessionId: string;
  reportId: string;
  reportLines: number;
}

export interface SeedDatabaseOutput {
  longSessionMessageIds: string[];
  reportCharacters: number;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as SeedDatabaseInput;
  const database = openDatabase({ url: input.databaseUrl });
  try {
    const repositories = createRepositories(database);
    const report = Array.from(
      { length: input.reportLines },
      (_, index) =>
        `${String(index + 1).padStart(5, '0')}; invoice ${1000 + index}; amount ${(index * 37) % 9973}.${index % 100} EUR`,
    ).join('\n');
    await repositories.turnStore.keepToolResult(input.ownerUserId, {
      sessionId: input.reportSessionId,
      toolCallId: input.reportId,
      content: report,
    });
    const ids: string[] = [];
    for (let index = 0; index < input.longSessionMessages; index += 1) {
      const isUser = index % 2 === 0;
      const appended = await repositories.turnStore.append(input.ownerUserId, input.longSessionId, {
        role: isUser ? 'user' : 'assistant',
        contentParts: [
          {
            type: 'text',
            text: isUser
              ? `Question ${index / 2 + 1}: what is the status of order ${5000 + index}?`
              : `Answer ${(index + 1) / 2}: order ${4999 + index} shipped.${index % 7 === 0 ? '\nIt left the warehouse on time, and the carrier confirmed the pickup.' : ''}`,
          },
        ],
        ...(isUser ? {} : { usage: { input: 40, output: 12, thinking: 0, cached: 0 }, model: 'gpt-test' }),
      });
      ids.push(appended.message.id);
    }
    const output: SeedDatabaseOutput = { longSessionMessageIds: ids, reportCharacters: report.length };
    process.stdout.write(JSON.stringify(output));
  } finally {
    await database.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
