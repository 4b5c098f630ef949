import { Module } from '@nestjs/common';
import { AgentModule } from '../agent/agent.module';
import { OpenAICompatController } from './openai-compat.controller';

/** `POST /v1/chat/completions` and `GET /v1/models`: OpenAI's API over every configured provider. */
@Module({
  imports: [AgentModule],
  controllers: [OpenAICompatController],
})
export class OpenAICompatModule {}
