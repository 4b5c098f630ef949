export { UsagePage } from './components/usage-page';
export { parseUsageView } from './usage-view';
