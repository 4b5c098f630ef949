import { describeRunEngine } from './run-engine.suite';

describeRunEngine('sqlite');
