import { Controller, Get, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@agentdesk/authz';
import {
  modelPriceJsonSchema,
  modelPriceListJsonSchema,
  newModelPriceBodySchema,
  usdToMicros,
  type ModelPriceJson,
  type ModelPriceListJson,
  type NewModelPriceBody,
} from '@agentdesk/api-contract';
import type { ModelPrice } from '@agentdesk/storage';
import { CurrentPrincipal } from '../auth/request-principal';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidBody } from '../http/validated';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext } from '../shared/audit/audit-context';
import { DocumentsChangeReason } from '../shared/audit/audit-reason';
import { Audited } from '../shared/audit/audited';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import { PriceBook } from '../shared/metering/price-book';
import { modelPriceChange } from './model-price-change';
import { toModelPriceJson } from './model-price-json';

/** The ids of the versions in effect at `now`: each model's newest version effective by then. */
function currentIds(prices: readonly ModelPrice[], now: number): Set<string> {
  const current = new Map<string, string>();
  // By model, newest first: the first version of a model effective by now is its current one.
  for (const price of prices)
    if (!current.has(price.model) && price.effectiveFrom.getTime() <= now) current.set(price.model, price.id);
  return new Set(current.values());
}

/**
 * The model price table: what each model's calls cost, as versions that are added and never changed
 * (a new price applies to calls made from its `effectiveFrom` on; costs already computed stay).
 */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@Controller('v1/admin/model-prices')
export class ModelPricesController {
  constructor(@Inject(PriceBook) private readonly prices: PriceBook) {}

  @Get()
  // The price table names no user: readable by whoever reads usage (admins and viewers), not audited.
  @RequireScope('usage:read')
  @ApiOperation({
    summary:
      'Every model price version (US dollars per million tokens, exact decimals), by model, newest first, ' +
      'with the version in effect now marked current',
  })
  @Returns(200, modelPriceListJsonSchema, 'Every version')
  async list(): Promise<ModelPriceListJson> {
    const all = await this.prices.list();
    const current = currentIds(all, this.prices.now());
    return { items: all.map((price) => toModelPriceJson(price, current.has(price.id))) };
  }

  @Post()
  @RequireScope('prices:write')
  @Audited(auditActions.modelPriceAdd, { target: { kind: 'model-price' } })
  @ApiOperation({
    summary:
      'Add a price version for a model, in effect from effectiveFrom (now when omitted; never in the past: ' +
      'costs already computed are never rewritten). Cached input defaults to the input price, thinking to ' +
      'the output price (audited)',
  })
  @DocumentsChangeReason()
  @Returns(201, modelPriceJsonSchema, 'The version added')
  @Refuses(409, 413)
  async add(
    @CurrentAuditContext() context: AuditContext,
    @CurrentPrincipal() principal: Principal,
    @ValidBody(newModelPriceBodySchema) body: NewModelPriceBody,
  ): Promise<ModelPriceJson> {
    const now = this.prices.now();
    const effectiveFrom = body.effectiveFrom === undefined ? now : Date.parse(body.effectiveFrom);
    if (effectiveFrom < now)
      throw new ApiError(
        ApiErrorCode.ValidationFailed,
        'body.effectiveFrom: must not be in the past (costs already computed are never rewritten); omit it to apply the price from now',
      );
    const input = usdToMicros(body.inputUsdPerMillion);
    const output = usdToMicros(body.outputUsdPerMillion);
    const added = await this.prices.add({
      model: body.model,
      provider: body.provider,
      inputMicrosPerMillion: input,
      cachedInputMicrosPerMillion:
        body.cachedInputUsdPerMillion === undefined ? input : usdToMicros(body.cachedInputUsdPerMillion),
      outputMicrosPerMillion: output,
      thinkingMicrosPerMillion:
        body.thinkingUsdPerMillion === undefined ? output : usdToMicros(body.thinkingUsdPerMillion),
      effectiveFrom,
      createdBy: principal.id,
    });
    context.describeChange(modelPriceChange(added));
    return toModelPriceJson(added, effectiveFrom <= now);
  }
}
