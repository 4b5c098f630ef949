import { randomBytes } from 'node:crypto';

/** A fresh admin key in the API's format, set as `AGENTDESK_ADMIN_KEY` so the tests know it. */
export function newAdminKey(): string {
  return `adk_${randomBytes(16).toString('hex')}_${randomBytes(32).toString('base64url')}`;
}

/** Every provider of the API pointed at the provider emulator, `gpt-test` the default model. */
export function emulatorProviders(emulatorUrl: string): Record<string, string> {
  return {
    AGENTDESK_DEFAULT_MODEL: 'gpt-test',
    OPENAI_API_KEY: 'sk-emulator',
    OPENAI_BASE_URL: `${emulatorUrl}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-emulator',
    ANTHROPIC_BASE_URL: emulatorUrl,
    GEMINI_API_KEY: 'gemini-emulator',
    GEMINI_BASE_URL: emulatorUrl,
  };
}
