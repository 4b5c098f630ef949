export { UsagePage } from './components/usage-page';
