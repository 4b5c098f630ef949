/** The little a sandbox needs from a logger; pino and console both fit. */
export interface SandboxLogger {
  info(message: string): void;
  warn(message: string): void;
}

export const consoleLogger: SandboxLogger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
};

export const silentLogger: SandboxLogger = { info: () => undefined, warn: () => undefined };
