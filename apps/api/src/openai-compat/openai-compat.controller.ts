import { executeChatCompletion } from '@agentdesk/providers';
import { findUnstorableText } from '@agentdesk/storage';
import {
  applyDecorators,
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { NamedEndUser, type ActingEndUser } from '../auth/effective-owner';
import { NotAudited } from '../shared/audit/audited';
import { principalOf } from '../auth/request-principal';
import { ModelRouter } from '../model-access/model-router';
import { RequireScope } from '../routes/route-policy';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER } from '../core/tokens';
import { clientGoneSignal } from '../http/client-gone';
import { ApiKeyAuthenticated } from '../http/openapi-decorators';
import { openApiSchemaOf } from '../http/openapi-schema';
import { AnswerTextGate, answerTextPolicyFor } from './answer-text-gate';
import { chatCompletionRequestSchema } from './chat-completion-request';
import { assertJsonAnswer, requestedJsonOf } from './json-answer';
import { listServedModels, type OpenAIModelList } from './model-list';
import {
  OpenAICompatError,
  fromUnstorableText,
  fromValidationError,
  openAIErrorBodySchema,
} from './openai-error';
import { OpenAIExceptionFilter } from './openai-exception.filter';
import { sendCompletionStream } from './send-completion-stream';
import { toChatOptions } from './to-chat-options';
import { newCompletionId, toOpenAICompletion } from './to-openai-response';
import { chatCompletionOrigin } from '../shared/metering/call-origins';
import { meterCompletion, meterStream } from '../shared/metering/meter-model-call';
import { UsageMeter } from '../shared/metering/usage-meter';

/** The error statuses a route can answer, all with OpenAI's error body. */
const RefusesInOpenAIShape = (...statuses: number[]): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: 'OpenAI’s error body { error: { message, type, param, code } }',
        schema: openApiSchemaOf(openAIErrorBodySchema),
      }),
    ),
  );

/**
 * OpenAI's Chat Completions API over every configured provider, stateless: nothing is stored.
 * Request, response, stream and error shapes are OpenAI's, so the `openai` SDK, LangChain's
 * `ChatOpenAI` and the AI SDK's OpenAI-compatible provider work unchanged.
 */
@ApiTags('openai-compatible')
@ApiKeyAuthenticated()
@RefusesInOpenAIShape(401, 403, 429)
@UseFilters(OpenAIExceptionFilter)
@Controller('v1')
export class OpenAICompatController {
  constructor(
    @Inject(ModelRouter) private readonly router: ModelRouter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(UsageMeter) private readonly usageMeter: UsageMeter,
  ) {}

  @Post('chat/completions')
  @HttpCode(200)
  @RequireScope('completions:create')
  @NotAudited(
    'a stateless model call for the caller or a portal’s end user: metered as usage, it changes nothing stored',
  )
  @ApiOperation({
    summary: 'Create a chat completion (OpenAI-compatible; gpt-*, claude-* and gemini-* models)',
    description:
      'OpenAI’s request and `chat.completion` response; `stream: true` sends `chat.completion.chunk` SSE ending with ' +
      '`data: [DONE]` (usage in a last chunk with `stream_options.include_usage`). `response_format` works on every ' +
      'provider: `message.content` is then the post-processed JSON (for strict schemas with the nulls of optional ' +
      'fields removed), the value that validates against the schema sent; a model that answers something else ' +
      '(e.g. prose) is a 502 `invalid_model_output`, never prose labelled as JSON: streamed, an answer whose ' +
      'start is not JSON fails before any content, and one that goes wrong later ends with OpenAI’s in-stream ' +
      'error event. Refusals come as `refusal` with `content: null` (OpenAI models: streamed as `delta.refusal`, ' +
      'finish `stop`). Anthropic says an answer was a refusal only when it ends, so a streamed Anthropic refusal ' +
      'arrives as content, then its text again in a final `delta.refusal` chunk with finish `content_filter` ' +
      '(unstreamed: `refusal` set, `content: null`, finish `content_filter`). Errors use OpenAI’s error body.',
  })
  @ApiBody({ schema: openApiSchemaOf(chatCompletionRequestSchema) })
  @ApiResponse({
    status: 200,
    description: 'A `chat.completion` object, or a `text/event-stream` of `chat.completion.chunk`s',
  })
  @RefusesInOpenAIShape(400, 404, 413, 415, 502, 503, 504)
  async createChatCompletion(
    @Body() rawBody: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @NamedEndUser() endUser: ActingEndUser,
  ): Promise<object | undefined> {
    // The same rule as every other route's validation pipe: no NUL or unpaired surrogate anywhere.
    const unstorable = findUnstorableText(rawBody);
    if (unstorable !== undefined) throw new OpenAICompatError(fromUnstorableText(unstorable));
    const parsed = chatCompletionRequestSchema.safeParse(rawBody);
    if (!parsed.success) throw new OpenAICompatError(fromValidationError(parsed.error, rawBody));
    const body = parsed.data;
    const { client, provider } = this.router.resolve(body.model);
    const requestedJson = requestedJsonOf(body);
    // The client going away cancels the provider call.
    const clientGone = clientGoneSignal(reply.raw);
    const options = {
      ...toChatOptions(body),
      signal: clientGone,
      streamIdleTimeoutMs: this.router.requestTimeoutMs,
    };
    // Metered when the call ends, off the request path (the meter only buffers).
    const usageOrigin = chatCompletionOrigin(principalOf(request), endUser, body.model, provider);
    try {
      if (!body.stream) {
        const result = await meterCompletion(
          this.usageMeter,
          usageOrigin,
          executeChatCompletion(client, { ...options, stream: false }),
          clientGone,
        );
        assertJsonAnswer(result, requestedJson);
        return toOpenAICompletion(result, body.model);
      }
      const context = {
        id: newCompletionId(),
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        includeUsage: body.stream_options?.include_usage === true,
        toolIndexes: new Map<number, number>(),
        requestedJson,
        answerText: new AnswerTextGate(answerTextPolicyFor(body, provider)),
      };
      const parts = meterStream(
        this.usageMeter,
        usageOrigin,
        executeChatCompletion(client, { ...options, stream: true }),
        clientGone,
      );
      await sendCompletionStream(parts, context, {
        request,
        reply,
        signal: clientGone,
        logger: this.logger,
      });
      return undefined;
    } catch (error) {
      // Nobody is left to answer.
      if (clientGone.aborted) return undefined;
      throw error;
    }
  }

  @Get('models')
  @RequireScope('completions:create')
  @ApiOperation({
    summary: 'List the models this server can name (OpenAI-compatible)',
    description:
      'The default model and every exact-name route whose provider has credentials. Any other gpt-*, claude-* or ' +
      'gemini-* name (and wildcard routes) is accepted too, but cannot be enumerated without asking the providers. ' +
      '`created` is 0: the creation date is not known here.',
  })
  @ApiResponse({
    status: 200,
    description: '`{ object: "list", data: [{ id, object: "model", created, owned_by }] }`',
  })
  listModels(): OpenAIModelList {
    return listServedModels(this.router, this.config.models);
  }
}
