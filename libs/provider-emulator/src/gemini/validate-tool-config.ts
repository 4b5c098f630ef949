import {
  allowedFunctionNames,
  functionCallingConfig,
  functionDeclarations,
} from '../conversation/gemini-conversation';
import type { JsonObject } from '../json';
import { invalidArgument, type GeminiRejection } from './errors';

const callingModes = ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'];

/**
 * `toolConfig.functionCallingConfig` as the API checks it: a known mode, only with function
 * declarations, and allowed names that are declared.
 */
export function checkToolConfig(body: JsonObject): GeminiRejection | undefined {
  const config = functionCallingConfig(body);
  if (config === undefined) return undefined;
  if (config.mode !== undefined && (typeof config.mode !== 'string' || !callingModes.includes(config.mode))) {
    return invalidArgument(
      `Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), ${JSON.stringify(config.mode)}`,
    );
  }
  const declared = new Set(functionDeclarations(body).map((declaration) => declaration.name));
  if (declared.size === 0)
    return invalidArgument('Function calling config is set without function_declarations.');
  const unknown = (allowedFunctionNames(config) ?? []).findIndex((name) => !declared.has(name));
  if (unknown === -1) return undefined;
  return invalidArgument(
    `* GenerateContentRequest.tool_config.function_calling_config.allowed_function_names[${unknown}]: function name is not declared in tools.function_declarations.\n`,
  );
}
