import { describeHttpBoundary } from './suites/http-boundary.suite';

describeHttpBoundary('sqlite');
