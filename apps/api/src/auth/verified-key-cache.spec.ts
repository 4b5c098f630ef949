import { userPrincipal, type Principal } from '@agentdesk/authz';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VerifiedKeyCache } from './verified-key-cache';

const principalOf = (apiKeyId: string): Principal =>
  userPrincipal({ id: `user-${apiKeyId}`, role: 'user', portalId: null, apiKeyId });

type Operation =
  | { kind: 'remember'; key: number; secret: number }
  | { kind: 'get'; key: number; secret: number }
  | { kind: 'forget'; key: number | undefined }
  | { kind: 'wait'; ms: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('remember' as const), key: fc.nat(5), secret: fc.nat(1) }),
  fc.record({ kind: fc.constant('get' as const), key: fc.nat(5), secret: fc.nat(1) }),
  fc.record({ kind: fc.constant('forget' as const), key: fc.option(fc.nat(5), { nil: undefined }) }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.nat(1_500) }),
);

describe('VerifiedKeyCache', () => {
  it('never answers for a key forgotten, expired, evicted or presented with another secret', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 80 }),
        fc.integer({ min: 1, max: 4 }),
        (operations, size) => {
          let now = 0;
          const ttlMs = 1_000;
          const cache = new VerifiedKeyCache(ttlMs, size, () => now);
          // The model: when each (key, secret) was remembered, in order of last use.
          const model = new Map<string, number>();
          for (const step of operations) {
            if (step.kind === 'wait') now += step.ms;
            else if (step.kind === 'remember') {
              const id = `key-${step.key}`;
              cache.remember(id, `secret-${step.secret}`, principalOf(id), cache.epoch);
              const entry = `${id}:secret-${step.secret}`;
              model.delete(entry);
              model.set(entry, now);
              while (model.size > size) model.delete(model.keys().next().value!);
            } else if (step.kind === 'forget') {
              cache.forget(step.key === undefined ? undefined : `key-${step.key}`);
              for (const entry of [...model.keys()]) {
                if (step.key === undefined || entry.startsWith(`key-${step.key}:`)) model.delete(entry);
              }
            } else {
              const id = `key-${step.key}`;
              const entry = `${id}:secret-${step.secret}`;
              const rememberedAt = model.get(entry);
              const fresh = rememberedAt !== undefined && now < rememberedAt + ttlMs;
              expect(cache.get(id, `secret-${step.secret}`)).toEqual(fresh ? principalOf(id) : undefined);
              model.delete(entry);
              if (fresh) model.set(entry, rememberedAt);
            }
            expect(cache.size).toBeLessThanOrEqual(size);
          }
        },
      ),
    );
  });

  it('does not cache a row read before a revocation that arrived while the read was in flight', () => {
    const cache = new VerifiedKeyCache(5_000, 10);
    const epochBeforeRead = cache.epoch;
    cache.forget('key-1');
    cache.remember('key-1', 'secret', principalOf('key-1'), epochBeforeRead);
    expect(cache.get('key-1', 'secret')).toBeUndefined();
    cache.remember('key-1', 'secret', principalOf('key-1'), cache.epoch);
    expect(cache.get('key-1', 'secret')).toEqual(principalOf('key-1'));
  });

  it('caches nothing with a TTL of 0', () => {
    const cache = new VerifiedKeyCache(0, 10);
    cache.remember('key-1', 'secret', principalOf('key-1'), cache.epoch);
    expect(cache.enabled).toBe(false);
    expect(cache.get('key-1', 'secret')).toBeUndefined();
  });
});
