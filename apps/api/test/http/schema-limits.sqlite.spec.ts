import { describeSchemaLimits } from './suites/schema-limits.suite';

describeSchemaLimits('sqlite');
