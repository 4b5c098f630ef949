// Transitional re-export for configs that still import the extensionless path; use vitest.shared.mjs.
export { workspaceAliases } from './vitest.shared.mjs';
