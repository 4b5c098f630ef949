import { describeSessionLiveFeed } from './suites/session-live-feed.suite';

describeSessionLiveFeed('sqlite');
