export { SuitesPage } from './components/suites-page';
export { SuitePage } from './components/suite-page';
export { SuiteRunPage } from './components/run-page';
export { SaveLabRunAsCase } from './components/save-lab-run-as-case';
export {
  handleCreateSuite,
  handleImportIntoSuite,
  handleImportSuite,
  handleSaveLabRunAsCase,
  handleSaveSuite,
  handleStartRun,
} from './server/suite-routes';
export { handleCancelRun, handleRunEvents, handleSuiteExport } from './server/run-routes';
