export { LabPage } from './components/lab-page';
export { RunPage } from './components/run-page';
export { TargetResultPanel } from './components/target-result-panel';
export { handleCreateRun } from './server/lab-routes';
export { handleSchemaCheck } from './server/schema-check-route';
export { checkSchemaText, type SchemaCheck } from './schema-check';
export { readablePointer, valueAtPointer } from './json-pointer';
