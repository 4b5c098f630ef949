import { describePeople } from './suites/people.suite';

describePeople('postgres');
