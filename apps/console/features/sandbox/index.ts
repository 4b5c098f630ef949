export { SandboxPage } from './components/sandbox-page';
export {
  handleBuildEvents,
  handleRebuild,
  handleRemoveContainer,
  handleRepin,
} from './server/sandbox-routes';
export { buildLogLineOf, buildOutcomeOf, readCheckedBuildEvent } from './build-log-model';
export { parseBuildEvent } from './server/checked-build-events';
