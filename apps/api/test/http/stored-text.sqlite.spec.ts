import { describeStoredText } from './suites/stored-text.suite';

describeStoredText('sqlite');
