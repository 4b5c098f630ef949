import { describeResponseFormat } from './suites/response-format.suite';

describeResponseFormat('sqlite');
