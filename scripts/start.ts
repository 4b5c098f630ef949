/**
 * `npm start`: the AgentDesk API on the zero-setup SQLite database (data/agentdesk.db), and the admin
 * console (apps/console, a production build served by `next start`) on the next port.
 *
 * With no provider key in the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or
 * GOOGLE_API_KEY), model calls go to the local provider emulator, started here and announced as
 * such: answers are canned, not a model's. With a key, the same code talks to the real provider.
 */
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { startProviderEmulator } from '@agentdesk/provider-emulator';
import { startConsole } from './console-server';
import { prepareSandboxForStart } from './sandbox-banner';

const providerKeyVariables = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'];

async function main(): Promise<void> {
  const offline = !providerKeyVariables.some((name) => process.env[name]);
  if (offline) {
    const emulator = await startProviderEmulator({ defaultChunkSize: 4 });
    Object.assign(process.env, {
      OPENAI_API_KEY: 'offline-emulator',
      OPENAI_BASE_URL: emulator.openaiBaseUrl,
      ANTHROPIC_API_KEY: 'offline-emulator',
      ANTHROPIC_BASE_URL: emulator.anthropicBaseUrl,
      GEMINI_API_KEY: 'offline-emulator',
      GEMINI_BASE_URL: emulator.geminiBaseUrl,
    });
    console.log(
      [
        '',
        `OFFLINE: no provider key is set, so every model (gpt-*, claude-*, gemini-*) is answered by the local`,
        `provider emulator at ${emulator.url} — canned text, not a real model. Set OPENAI_API_KEY,`,
        `ANTHROPIC_API_KEY or GEMINI_API_KEY to talk to the real providers.`,
        '',
      ].join('\n'),
    );
  }
  const sandboxBanner = await prepareSandboxForStart(process.env);
  // The API's decorators need its own tsconfig; load it the way apps/api/src/main.ts does.
  const { startApi } = (await tsImport('../apps/api/src/start-api.ts', {
    parentURL: import.meta.url,
    tsconfig: fileURLToPath(new URL('../apps/api/tsconfig.json', import.meta.url)),
  })) as { startApi: () => Promise<{ url: string; generatedAdminKey: string | undefined }> };
  const { url, generatedAdminKey } = await startApi();
  const consoleUrl = await startConsole({
    apiUrl: url,
    host: process.env.HOST ?? '127.0.0.1',
    port: consolePort(),
  });
  const key = generatedAdminKey ?? '$AGENTDESK_ADMIN_KEY';
  console.log(
    [
      'Try a streamed agent turn:',
      '',
      `  KEY=${key}${generatedAdminKey ? '' : '   # the admin key of the first start; lost it? a new one: npm run admin-key'}`,
      `  SESSION=$(curl -s -X POST ${url}/v1/sessions -H "Authorization: Bearer $KEY" \\`,
      `      -H 'content-type: application/json' -d '{"label":"demo"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).id')`,
      `  curl -N -X POST ${url}/v1/sessions/$SESSION/messages -H "Authorization: Bearer $KEY" \\`,
      `      -H 'accept: text/event-stream' -H 'content-type: application/json' -d '{"content":"Hello!"}'`,
      '',
      `OpenAI-compatible: POST ${url}/v1/chat/completions with the same key.`,
      '',
      sandboxBanner,
      '',
      `AgentDesk console: ${consoleUrl}  — sign in with ${generatedAdminKey ? 'the admin key above' : 'an admin or viewer key (a new one: npm run admin-key)'}`,
      '',
    ].join('\n'),
  );
}

/** `CONSOLE_PORT`, else the port after the API's. */
function consolePort(): number {
  const configured = process.env.CONSOLE_PORT;
  if (configured === undefined || configured === '') return Number(process.env.PORT ?? '3000') + 1;
  const port = Number(configured);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    console.error(`CONSOLE_PORT must be a port number (1–65535), got "${configured}"`);
    process.exit(2);
  }
  return port;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
