/**
 * `npm start`: the AgentDesk API on the zero-setup SQLite database (data/agentdesk.db), and the admin
 * console (apps/console, a production build served by `next start`) on the next port.
 *
 * With no provider key in the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or
 * GOOGLE_API_KEY), model calls go to the local provider emulator, started here and announced as
 * such: answers are canned, not a model's. With a key, the same code talks to the real provider.
 *
 * Offline, the emulator's structured-output answers go wrong now and then, reproducibly and at a
 * different rate per model (`demoVariation`, documented in libs/provider-emulator/README.md), so the
 * demo QA suite (`demo/qa-demo-suite.yaml`, created here when an admin key is at hand) shows models
 * that differ.
 *
 * `npm start -- --demo-sso` also starts a local OpenID provider and turns single sign-on on for it
 * (`demo-sso.ts`); never without the flag.
 */
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { startProviderEmulator, type VariationSettings } from '@agentdesk/provider-emulator';
import { ensureConsolePortFree, startConsole } from './console-server';
import { DEMO_SSO_FLAG, startDemoSso } from './demo-sso';
import { DEMO_SUITE_NAME, seedDemoSuite, type DemoSuiteOutcome } from './demo/seed-demo-suite';
import { prepareSandboxForStart } from './sandbox-banner';

const providerKeyVariables = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'];

/**
 * The offline emulator's invalid structured-output answers: per model, the share that breaks the
 * schema (invalid enum, missing required, wrong type, prose around the JSON). The demo suite's
 * three models; every other model at the default. Documented in libs/provider-emulator/README.md.
 */
const demoVariation: VariationSettings = {
  seed: 'demo-3',
  rates: { default: 0.1, 'gpt-4o-mini': 0.2, 'claude-3-5-haiku-latest': 0.1, 'gemini-2.0-flash': 0.4 },
};

async function main(): Promise<void> {
  const unknown = process.argv.slice(2).filter((argument) => argument !== DEMO_SSO_FLAG);
  if (unknown.length > 0) {
    console.error(`npm start: unknown option ${unknown.join(' ')} (the one option is ${DEMO_SSO_FLAG})`);
    process.exit(2);
  }
  // Before the API starts (and creates a first admin key): a console that cannot listen is one line.
  await ensureConsolePortFree({ host: host(), port: consolePort() });
  const offline = !providerKeyVariables.some((name) => process.env[name]);
  if (offline) {
    const emulator = await startProviderEmulator({ defaultChunkSize: 4, variation: demoVariation });
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
        `Some structured-output answers are deliberately invalid (seeded, per model; change or turn off:`,
        `PUT/DELETE ${emulator.url}/_emulator/variation — see libs/provider-emulator/README.md).`,
        '',
      ].join('\n'),
    );
  }
  let demoSsoBanner: string | undefined;
  if (process.argv.includes(DEMO_SSO_FLAG)) {
    const demo = await startDemoSso(apiPort(), consolePort());
    // The operator's own values win over the demo's.
    for (const [name, value] of Object.entries(demo.environment)) process.env[name] ??= value;
    demoSsoBanner = demo.banner;
  }
  const sandboxBanner = await prepareSandboxForStart(process.env);
  // The API's decorators need its own tsconfig; load it the way apps/api/src/main.ts does.
  const { startApi } = (await tsImport('../apps/api/src/start-api.ts', {
    parentURL: import.meta.url,
    tsconfig: fileURLToPath(new URL('../apps/api/tsconfig.json', import.meta.url)),
  })) as { startApi: () => Promise<{ url: string; generatedAdminKey: string | undefined }> };
  const { url, generatedAdminKey } = await startApi();
  // The first start's key, or the operator's; without either the API cannot be asked (later starts
  // find the suite the first one created).
  const seedKey = generatedAdminKey ?? process.env.AGENTDESK_ADMIN_KEY;
  const demoSuite = seedKey ? await seedDemoSuite(url, seedKey) : undefined;
  const consoleUrl = await startConsole({
    apiUrl: url,
    host: host(),
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
      ...demoSuiteBanner(demoSuite),
      ...(demoSsoBanner === undefined ? [] : [demoSsoBanner, '']),
      `AgentDesk console: ${consoleUrl}  — sign in with ${generatedAdminKey ? 'the admin key above' : 'an admin, viewer or qa key (a new one: npm run admin-key)'}`,
      '',
    ].join('\n'),
  );
}

/** How to run the demo QA suite, or why it is not there. */
function demoSuiteBanner(outcome: DemoSuiteOutcome | undefined): string[] {
  if (outcome === undefined) return [];
  if (outcome.kind === 'failed') return [`Demo QA suite not created: ${outcome.message}`, ''];
  return [
    `QA suite "${DEMO_SUITE_NAME}"${outcome.kind === 'created' ? ' created' : ''} — run it from a shell (or the console's Suites page):`,
    `  AGENTDESK_API_KEY=<key> npm run suite -- run '${DEMO_SUITE_NAME}' --junit qa-demo.xml`,
    '',
  ];
}

/** `HOST`, else 127.0.0.1 (as the API reads it). */
function host(): string {
  return process.env.HOST || '127.0.0.1';
}

/** `PORT`, else 3000 (as the API reads it). */
function apiPort(): number {
  return Number(process.env.PORT || '3000');
}

/** `CONSOLE_PORT`, else the port after the API's. */
function consolePort(): number {
  const configured = process.env.CONSOLE_PORT;
  if (configured === undefined || configured === '') return apiPort() + 1;
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
