import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/app-config';

/**
 * Header and field paths that carry credentials; pino replaces them before a line is written.
 * Fastify's request serializer logs no headers today — this is the second line of defence.
 */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-console-session"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-console-session"]',
  'authorization',
  'apiKey',
  'key',
  'secret',
  'token',
];

/** The process logger: JSON lines with the request id on every request log line. */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'agentdesk-api' },
    redact: { paths: redactedPaths, censor: '[redacted]' },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
