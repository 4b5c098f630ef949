/**
 * `npm start` for now: starts the local provider emulator and sends one structured-output request
 * through each provider's official SDK, printing the lowered schema, the change report and the
 * validated JSON. Later issues make this start the API.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenerativeAI } from '@google/generative-ai';
import OpenAI from 'openai';
import { startProviderEmulator } from '@agentdesk/provider-emulator';
import { executeChatCompletion, type JsonSchema, type SupportedClient } from '@agentdesk/providers';

const invoiceSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    customer: { type: 'string', minLength: 1 },
    total: { type: 'number', minimum: 0 },
    currency: { enum: ['EUR', 'USD'] },
    note: { type: 'string' },
    lines: {
      type: 'array',
      minItems: 1,
      items: { $ref: '#/$defs/line' },
    },
  },
  required: ['customer', 'total', 'currency', 'lines'],
  $defs: {
    line: {
      type: 'object',
      properties: {
        sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
        quantity: { type: 'integer', minimum: 1 },
      },
      required: ['sku', 'quantity'],
    },
  },
};

async function main(): Promise<void> {
  const emulator = await startProviderEmulator();
  console.log(`Provider emulator (offline, no real provider is called) listening on ${emulator.url}\n`);
  const clients: Array<[string, SupportedClient, string]> = [
    ['openai', new OpenAI({ apiKey: 'sk-local', baseURL: emulator.openaiBaseUrl }), 'gpt-4o-mini'],
    [
      'anthropic',
      new Anthropic({ apiKey: 'sk-ant-local', baseURL: emulator.anthropicBaseUrl }),
      'claude-demo',
    ],
    [
      'gemini',
      new GoogleGenerativeAI('local-key').getGenerativeModel(
        { model: 'gemini-demo' },
        { baseUrl: emulator.geminiBaseUrl, apiVersion: 'v1beta' },
      ),
      'gemini-demo',
    ],
  ];
  try {
    for (const [provider, client, model] of clients) {
      const result = await executeChatCompletion(client, {
        modelParams: { model },
        messages: [
          { role: 'system', content: 'You extract invoices.' },
          { role: 'user', content: 'ACME bought 3 of ABC-1 for 42 EUR.' },
        ],
        responseFormat: { type: 'json_schema', schema: invoiceSchema, name: 'invoice', strict: true },
      });
      console.log(`=== ${provider} (${result.model}) ===`);
      console.log('lowered schema:', JSON.stringify(result.schemaLowering?.schema));
      console.log('changes:');
      for (const change of result.schemaLowering?.changes ?? []) {
        console.log(`  ${change.pointer || '/'}  ${change.keyword}  ${change.action}: ${change.detail}`);
      }
      console.log('json:', JSON.stringify(result.json));
      console.log(
        'valid against the original schema:',
        result.validation?.valid,
        result.validation?.errors ?? [],
      );
      console.log('usage:', result.usage, '\n');
    }
  } finally {
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
