/** The fields Node's system errors and the database drivers put on their errors. */
export interface DriverErrorFields {
  readonly code?: string;
  readonly syscall?: string;
  readonly path?: string;
  readonly message: string;
}

/**
 * The error and everything it wraps (`cause` chains, `AggregateError.errors`), outermost first:
 * a failed migration wraps the driver's error, and a connection attempt to several addresses
 * aggregates one error per address.
 */
export function driverErrorCauses(error: unknown): DriverErrorFields[] {
  const found: DriverErrorFields[] = [];
  const pending: unknown[] = [error];
  const seen = new Set<unknown>();
  while (pending.length > 0 && found.length < 20) {
    const current = pending.shift();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    found.push(fieldsOf(current));
    if ('cause' in current) pending.push(current.cause);
    if (current instanceof AggregateError) pending.push(...(current.errors as unknown[]));
  }
  return found;
}

function fieldsOf(value: object): DriverErrorFields {
  const read = (name: string): string | undefined => {
    const field = (value as Record<string, unknown>)[name];
    return typeof field === 'string' ? field : undefined;
  };
  const code = read('code');
  const syscall = read('syscall');
  const path = read('path');
  return {
    message: read('message') ?? '',
    ...(code === undefined ? {} : { code }),
    ...(syscall === undefined ? {} : { syscall }),
    ...(path === undefined ? {} : { path }),
  };
}
