// Test helpers other projects' tests may use; kept out of the main entry so running the emulator
// (`npm start`, the CLI) never loads fast-check.
export { callerObjectSchema } from './test-support/caller-object-schemas';
