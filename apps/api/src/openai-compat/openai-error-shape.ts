import type { PathErrorShape } from '../http/http-error-handling';
import { fromApiError } from './openai-error';
import { isOpenAICompatPath } from './openai-paths';
import { sendOpenAIError } from './send-openai-error';

/**
 * OpenAI's error body on the OpenAI-compatible paths, for errors no controller filter sees
 * (unknown paths, wrong methods, unreadable requests). The app hands it to the HTTP layer.
 */
export const openAIErrorShape: PathErrorShape = {
  matches: isOpenAICompatPath,
  send: sendOpenAIError,
  answer: (error) => {
    const openAI = fromApiError(error);
    return { status: openAI.status, body: openAI.body, ...(openAI.headers && { headers: openAI.headers }) };
  },
};
