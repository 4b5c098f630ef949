import { describeEnginesAgree } from './suites/fuzz.suite';

// One file for both engines: each request goes to SQLite and PostgreSQL and the answers are compared.
describeEnginesAgree();
