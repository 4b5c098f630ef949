/**
 * The browser's side of the console's own route handlers. Those handlers check every API answer
 * against the shared contract on the server and refuse only with the API's error body
 * (`{ error: { code, message } }`) and the API's own codes — relayed, or the console's few refusals
 * (`consoleRefusal`: cross-site, signed out, …) — so the browser takes a success body as the type it
 * was checked against, shows a refusal's message and code as they are with no code of its own to
 * tell apart, and needs no schema library (zod stays out of the client bundles).
 */

/** What a console route handler answered: its checked data, or the message to show for a refusal. */
export type ConsoleAnswer<Data> = { ok: true; data: Data } | { ok: false; status: number; message: string };

/** The console itself could not be reached (network down, server restarting). */
export const CONSOLE_UNREACHABLE = 'The console cannot be reached; try again in a moment.';

function textField(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[name];
  return typeof field === 'string' ? field : undefined;
}

/** The message of a refusal body: the API's message and code, else the bare status. */
export function refusalText(status: number, body: unknown): string {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const message = textField(error, 'message');
  const code = textField(error, 'code');
  if (message === undefined) return `The request failed with HTTP ${status}`;
  return code === undefined ? message : `${message} (${code})`;
}

/**
 * Reads one answer of a console route handler. An empty success body (204) reads as `undefined`:
 * only a handler declared to answer nothing may be read with `Data = undefined`.
 */
export async function readConsoleAnswer<Data>(response: Response): Promise<ConsoleAnswer<Data>> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok)
    return { ok: false, status: response.status, message: refusalText(response.status, body) };
  return { ok: true, data: body as Data };
}

/** A call to a console route handler; an unreachable console is an answer too (status 0), never a throw. */
export async function callConsole<Data>(path: string, init: RequestInit = {}): Promise<ConsoleAnswer<Data>> {
  let response: Response;
  try {
    response = await fetch(path, {
      cache: 'no-store',
      ...init,
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch {
    return { ok: false, status: 0, message: CONSOLE_UNREACHABLE };
  }
  return readConsoleAnswer<Data>(response);
}
