/** Where the API was told to listen (`HOST`, `PORT`). */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * One line for an operator when the server cannot listen (port in use, a privileged port, an
 * address this machine does not have), saying which variable to change; `undefined` otherwise.
 */
export function explainListenFailure(error: unknown, address: ListenAddress): string | undefined {
  const where = `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
  switch (systemErrorCode(error)) {
    case 'EADDRINUSE':
      return `Port ${address.port} on ${address.host} is already in use (another AgentDesk, or another program) — stop it, or start on a free port: PORT=${freePortSuggestion(address.port)} npm start`;
    case 'EACCES':
    case 'EPERM':
      return `Not allowed to listen on ${where} (ports below 1024 need privileges) — start on a higher port: PORT=3000 npm start`;
    case 'EADDRNOTAVAIL':
      return `HOST=${address.host} is not an address of this machine — use HOST=127.0.0.1 (this machine only) or HOST=0.0.0.0 (every interface)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST=${address.host} could not be resolved to an address — use an IP address such as HOST=127.0.0.1`;
    default:
      return undefined;
  }
}

function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function freePortSuggestion(port: number): number {
  return port < 65_535 ? port + 1 : 3000;
}
