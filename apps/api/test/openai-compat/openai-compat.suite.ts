import { describe } from 'vitest';
import type { Engine } from '../support/engines';
import { describeAiSdkCases } from './ai-sdk.cases';
import { useCompatApi } from './compat-context';
import { describeErrorCases } from './errors.cases';
import { describeLangChainCases } from './langchain.cases';
import { describeModelOutputCases } from './model-output.cases';
import { describeRoutesAndLimits } from './routes-and-limits.cases';
import { describeOpenAISdkCases } from './openai-sdk.cases';
import { describeToolChoiceCases } from './tool-choice.cases';

/**
 * `POST /v1/chat/completions` and `GET /v1/models` over real HTTP, driven by the real clients
 * (openai SDK, LangChain's ChatOpenAI, the AI SDK's OpenAI-compatible provider) on a model of each
 * provider, all answered by the provider emulator.
 */
export function describeOpenAICompat(engine: Engine): void {
  describe(`OpenAI-compatible API (${engine})`, () => {
    const context = useCompatApi(engine);
    describeOpenAISdkCases(context);
    describeLangChainCases(context);
    describeAiSdkCases(context);
    describeErrorCases(context);
    describeModelOutputCases(context);
    describeToolChoiceCases(context);
  });
  describe(`OpenAI-compatible API with routes and limits (${engine})`, () => {
    describeRoutesAndLimits(engine);
  });
}
