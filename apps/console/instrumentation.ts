import { ConsoleConfigError, consoleConfig } from './features/config/server/console-config';

/**
 * Runs once when the console's server starts: reads and checks its settings, so a bad one stops
 * `next start` (exit 2, every problem listed) instead of failing the first sign-in. Next only logs
 * an error thrown here and keeps serving, hence the exit.
 */
export function register(): void {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  try {
    consoleConfig();
  } catch (error) {
    if (!(error instanceof ConsoleConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}
