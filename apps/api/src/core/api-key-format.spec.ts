import { describe, expect, it } from 'vitest';
import { isId } from '@agentdesk/storage';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, hashesEqual, parseApiKey } from './api-key-format';

describe('API key format', () => {
  it('embeds a visible prefix and the key id, and a 256-bit secret', () => {
    const generated = generateApiKey();
    expect(generated.key).toMatch(/^adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(isId(generated.keyId)).toBe(true);
    expect(generated.visiblePrefix).toBe(`${API_KEY_PREFIX}${generated.keyId.replaceAll('-', '')}`);
    expect(generated.key.startsWith(`${generated.visiblePrefix}_`)).toBe(true);
    expect(parseApiKey(generated.key)).toEqual({
      keyId: generated.keyId,
      visiblePrefix: generated.visiblePrefix,
    });
    expect(generateApiKey().key).not.toBe(generated.key);
  });

  it('stores only the SHA-256 of the key, as lowercase hex', () => {
    const { key, secretHash } = generateApiKey();
    expect(secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(secretHash).toBe(hashApiKey(key));
    expect(secretHash).not.toContain(key.slice(-43));
    // The FIPS 180-2 test vector: the stored form is plain SHA-256, so other tools can verify it.
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('parses only well-formed keys', () => {
    const { key } = generateApiKey();
    for (const bad of [
      '',
      'adk_',
      key.slice(0, -1),
      `${key}A`,
      key.replace('adk_', 'sk_'),
      key.toUpperCase(),
      ` ${key}`,
      key.replace(/_([^_]*)$/, '.$1'),
    ]) {
      expect(parseApiKey(bad), bad).toBeUndefined();
    }
  });

  it('compares hashes in constant time and refuses different lengths', () => {
    const hash = hashApiKey('a');
    expect(hashesEqual(hash, hashApiKey('a'))).toBe(true);
    expect(hashesEqual(hash, hashApiKey('b'))).toBe(false);
    expect(hashesEqual(hash, hash.slice(1))).toBe(false);
  });
});
