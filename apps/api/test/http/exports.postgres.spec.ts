import { describeExports } from './suites/exports.suite';

describeExports('postgres');
