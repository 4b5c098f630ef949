import { describeResponseFormat } from './suites/response-format.suite';

describeResponseFormat('postgres');
