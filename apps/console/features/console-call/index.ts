export {
  CONSOLE_UNREACHABLE,
  callConsole,
  readConsoleAnswer,
  refusalText,
  type ConsoleAnswer,
} from './console-call';
