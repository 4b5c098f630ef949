import { describeSandboxEngineDown } from './suites/sandbox-engine-down.suite';

describeSandboxEngineDown('postgres');
