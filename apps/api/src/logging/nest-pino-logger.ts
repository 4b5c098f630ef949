import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/** Routes Nest's own log lines (module init, route mapping) into the pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...context: unknown[]): void {
    this.logger.debug({ context: lastString(context) }, String(message));
  }

  error(message: unknown, ...context: unknown[]): void {
    this.logger.error(
      { context: lastString(context), detail: context.length > 1 ? context[0] : undefined },
      String(message),
    );
  }

  warn(message: unknown, ...context: unknown[]): void {
    this.logger.warn({ context: lastString(context) }, String(message));
  }

  debug(message: unknown, ...context: unknown[]): void {
    this.logger.debug({ context: lastString(context) }, String(message));
  }

  verbose(message: unknown, ...context: unknown[]): void {
    this.logger.trace({ context: lastString(context) }, String(message));
  }
}

function lastString(values: unknown[]): string | undefined {
  const last = values.at(-1);
  return typeof last === 'string' ? last : undefined;
}
