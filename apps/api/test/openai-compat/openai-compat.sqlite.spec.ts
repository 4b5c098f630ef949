import { describeOpenAICompat } from './openai-compat.suite';

describeOpenAICompat('sqlite');
