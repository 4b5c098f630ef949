export { ConsoleSessionsPage } from './components/console-sessions-page';
export { handleEndAllConsoleSessions, handleEndConsoleSession } from './server/console-session-handlers';
