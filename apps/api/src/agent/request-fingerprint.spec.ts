import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from './request-fingerprint';

/** The same JSON value with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reversedKeys((value as Record<string, unknown>)[key])]),
  );
}

const request = { route: 'POST /v1/sessions/:id/messages', parameters: { id: 's1' }, stream: false };

describe('canonicalJson and requestFingerprint', () => {
  it('property: key order alone never changes the canonical text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(reversedKeys(value))).toBe(canonicalJson(value));
      }),
    );
  });

  it('property: the canonical text loses nothing (it parses back to the same value)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('property: bodies that differ give different fingerprints', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (left, right) => {
        fc.pre(canonicalJson(left) !== canonicalJson(right));
        expect(requestFingerprint({ ...request, body: left })).not.toBe(
          requestFingerprint({ ...request, body: right }),
        );
      }),
    );
  });

  it('keeps a __proto__ key as data', () => {
    const withProto = JSON.parse('{"schema":{"__proto__":{"type":"string"}}}') as unknown;
    expect(canonicalJson(withProto)).toBe('{"schema":{"__proto__":{"type":"string"}}}');
    expect(requestFingerprint({ ...request, body: withProto })).not.toBe(
      requestFingerprint({ ...request, body: { schema: {} } }),
    );
  });

  it('the session and the streaming mode are part of the request', () => {
    const body = { content: 'hi' };
    const base = requestFingerprint({ ...request, body });
    expect(requestFingerprint({ ...request, body: { content: 'hi' } })).toBe(base);
    expect(requestFingerprint({ ...request, parameters: { id: 's2' }, body })).not.toBe(base);
    expect(requestFingerprint({ ...request, stream: true, body })).not.toBe(base);
    expect(requestFingerprint({ ...request, route: 'POST /v1/other', body })).not.toBe(base);
  });
});
