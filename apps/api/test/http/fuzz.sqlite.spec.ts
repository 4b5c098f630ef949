import { describeFuzz } from './suites/fuzz.suite';

describeFuzz('sqlite');
