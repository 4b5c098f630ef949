/** Compile-time exhaustiveness: a `switch` that forgets a case fails to type-check here. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${String(value)}`);
}
