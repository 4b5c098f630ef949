import { describe, expect, it } from 'vitest';
import { turnErrorCodeOf, turnErrorCodes, turnErrorJsonSchema } from './turn-errors';

describe('turn errors', () => {
  it('reads each of its own codes as itself, and any provider code as a provider error', () => {
    for (const code of turnErrorCodes) expect(turnErrorCodeOf({ code })).toBe(code);
    expect(turnErrorCodeOf({ code: 'overloaded_error' })).toBe('provider_error');
    expect(turnErrorCodeOf({ code: 'rate_limit_exceeded' })).toBe('provider_error');
  });

  it('takes an error with its own code, or a provider’s code with the provider, and keeps unknown fields', () => {
    const own = { code: 'turn_interrupted', message: 'stopped' };
    const upstream = {
      code: 'overloaded_error',
      message: 'busy',
      provider: 'anthropic',
      status: 529,
      extra: 1,
    };
    expect(turnErrorJsonSchema.parse(own)).toEqual(own);
    expect(turnErrorJsonSchema.parse(upstream)).toEqual(upstream);
    // A code of no one's: neither one of ours nor a provider's.
    expect(turnErrorJsonSchema.safeParse({ code: 'made_up', message: 'x' }).success).toBe(false);
    expect(turnErrorJsonSchema.safeParse({ message: 'no code' }).success).toBe(false);
  });
});
