/** The `SharedState` of this process (Redis connections, or none). */
export const SHARED_STATE = Symbol('SHARED_STATE');
/** The `RateCounter` rate limits count in. */
export const RATE_COUNTER = Symbol('RATE_COUNTER');
