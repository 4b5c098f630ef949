import { describeLab } from './suites/lab.suite';

describeLab('sqlite');
