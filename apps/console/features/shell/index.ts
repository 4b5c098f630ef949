export { ApiProblem } from './components/api-problem';
export { ApiUnavailablePage } from './components/api-unavailable-page';
export { ConsoleShell } from './components/console-shell';
export { MissingScopeNotice } from './components/missing-scope-notice';
export { StatusPage } from './components/status-page';
export { navigationFor, type NavigationItem } from './navigation';
export { notFoundWhenApiSaysSo } from './not-found-from-api';
