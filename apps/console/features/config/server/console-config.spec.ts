import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConsoleConfigError, parseConsoleConfig } from './console-config';

describe('parseConsoleConfig', () => {
  it('defaults to the local API, a per-process secret and a plain-http cookie', () => {
    expect(parseConsoleConfig({})).toEqual({
      apiBaseUrl: 'http://127.0.0.1:3000',
      sessionSecret: undefined,
      secureCookie: false,
    });
  });

  it('reads each variable, dropping trailing slashes from the API URL', () => {
    const secret = 's'.repeat(32);
    expect(
      parseConsoleConfig({
        AGENTDESK_API_URL: 'https://api.example.test:8443//',
        AGENTDESK_CONSOLE_SESSION_SECRET: secret,
        AGENTDESK_CONSOLE_SECURE_COOKIE: 'true',
      }),
    ).toEqual({ apiBaseUrl: 'https://api.example.test:8443', sessionSecret: secret, secureCookie: true });
    expect(parseConsoleConfig({ AGENTDESK_CONSOLE_SESSION_SECRET: '' }).sessionSecret).toBeUndefined();
  });

  it('refuses every bad setting at once, naming each variable and never echoing the secret', () => {
    const shortSecret = 'too-short-secret';
    let thrown: unknown;
    try {
      parseConsoleConfig({
        AGENTDESK_API_URL: 'ftp://files.example.test',
        AGENTDESK_CONSOLE_SESSION_SECRET: shortSecret,
        AGENTDESK_CONSOLE_SECURE_COOKIE: 'yes',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConsoleConfigError);
    const message = (thrown as Error).message;
    expect(message).toMatch(/AGENTDESK_API_URL: must be an http\(s\) URL/);
    expect(message).toMatch(/AGENTDESK_CONSOLE_SESSION_SECRET: must be at least 32 characters/);
    expect(message).toMatch(/AGENTDESK_CONSOLE_SECURE_COOKIE: must be true or false/);
    expect(message).not.toContain(shortSecret);
  });

  it('accepts a secret exactly when it has at least 32 characters', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), (secret) => {
        const parse = () => parseConsoleConfig({ AGENTDESK_CONSOLE_SESSION_SECRET: secret });
        if (secret.length >= 32) expect(parse().sessionSecret).toBe(secret);
        else expect(parse).toThrow(ConsoleConfigError);
      }),
    );
  });
});
