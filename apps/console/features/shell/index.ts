export { ApiProblem } from './components/api-problem';
export { ConsoleShell } from './components/console-shell';
export { MissingScopeNotice } from './components/missing-scope-notice';
export { navigationFor, type NavigationItem } from './navigation';
