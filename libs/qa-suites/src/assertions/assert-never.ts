/** Ends an exhaustive `switch`: a new member of the union stops the build here. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
