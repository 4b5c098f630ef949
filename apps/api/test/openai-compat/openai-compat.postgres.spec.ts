import { describeOpenAICompat } from './openai-compat.suite';

describeOpenAICompat('postgres');
