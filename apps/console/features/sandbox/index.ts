export { SandboxPage } from './components/sandbox-page';
export {
  handleBuildEvents,
  handleRebuild,
  handleRemoveContainer,
  handleRepin,
} from './server/sandbox-routes';
export { buildLogLineOf, buildOutcomeOf, parseBuildEvent } from './build-log-model';
