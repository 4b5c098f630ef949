import type { ProviderEmulator } from '@agentdesk/provider-emulator';

/** The environment that points every provider of the API at a local provider emulator. */
export function emulatorEnvironment(emulator: ProviderEmulator): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-emulator',
    OPENAI_BASE_URL: emulator.openaiBaseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-emulator',
    ANTHROPIC_BASE_URL: emulator.anthropicBaseUrl,
    GEMINI_API_KEY: 'gemini-emulator',
    GEMINI_BASE_URL: emulator.geminiBaseUrl,
    AGENTDESK_DEFAULT_MODEL: 'gpt-test',
  };
}
