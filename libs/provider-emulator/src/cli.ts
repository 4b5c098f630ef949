/**
 * Runs the provider emulator as a process, for end-to-end tests of an out-of-process API server:
 *
 *   npx tsx libs/provider-emulator/src/cli.ts --port 4010 [--host 127.0.0.1] [--chunk-size 8] [--max-recorded-requests 1000]
 *     [--variation '{"seed":7,"rates":{"default":0.1}}']
 *
 * Prints the base URLs (the first line is `provider-emulator listening on <url>`) and serves until
 * SIGINT/SIGTERM. Script it over HTTP with `POST /_emulator/script`; change the variation with
 * `PUT /_emulator/variation`.
 */
import { parseArgs } from 'node:util';
import { startProviderEmulator } from './emulator';
import { parseVariationSettings, type VariationSettings } from './variation/variation-settings';

function integerOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

function variationOption(value: string | undefined): VariationSettings | undefined {
  if (value === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error('--variation must be JSON, e.g. {"seed":7,"rates":{"default":0.1}}');
  }
  return parseVariationSettings(json);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'chunk-size': { type: 'string' },
      'max-recorded-requests': { type: 'string' },
      variation: { type: 'string' },
    },
    strict: true,
  });
  const emulator = await startProviderEmulator({
    port: integerOption('port', values.port),
    host: values.host,
    defaultChunkSize: integerOption('chunk-size', values['chunk-size']),
    maxRecordedRequests: integerOption('max-recorded-requests', values['max-recorded-requests']),
    variation: variationOption(values.variation),
  });
  const lines = [
    `provider-emulator listening on ${emulator.url}`,
    `  OpenAI     baseURL  ${emulator.openaiBaseUrl}`,
    `  Anthropic  baseURL  ${emulator.anthropicBaseUrl}`,
    `  Gemini     baseUrl  ${emulator.geminiBaseUrl}  (apiVersion 'v1beta')`,
    `  control             ${emulator.url}/_emulator/{script,requests,reset,health,variation}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const shutdown = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
