export { ExportLinks } from './components/export-links';
export { handleExport } from './server/export-handler';
