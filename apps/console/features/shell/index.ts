export { ApiProblem } from './components/api-problem';
export { ConsoleShell } from './components/console-shell';
export { navigationFor, type NavigationItem } from './navigation';
