import type { ChatCompletionOptions } from '../types/options';
import type { ChatWarning } from '../types/result';

export interface CallSettings {
  model: string;
  maxTokens: number | undefined;
  temperature: number | undefined;
}

/**
 * Per-call values win over model defaults. A temperature outside [0, max] is clamped with a warning
 * rather than sent to fail: the caller's intent (more or less random) is still honoured.
 */
export function resolveCallSettings(
  options: ChatCompletionOptions,
  maxTemperature: number,
  warnings: ChatWarning[],
): CallSettings {
  const maxTokens = options.maxTokens ?? options.modelParams.maxTokens;
  let temperature = options.temperature ?? options.modelParams.temperature;
  if (temperature !== undefined && (temperature < 0 || temperature > maxTemperature)) {
    const clamped = Math.min(Math.max(temperature, 0), maxTemperature);
    warnings.push({
      type: 'clamped-setting',
      setting: 'temperature',
      message: `temperature ${temperature} is outside [0, ${maxTemperature}] for this provider; sent ${clamped}`,
    });
    temperature = clamped;
  }
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw new RangeError(`maxTokens must be a positive integer, got ${maxTokens}`);
  }
  return { model: options.modelParams.model, maxTokens, temperature };
}
