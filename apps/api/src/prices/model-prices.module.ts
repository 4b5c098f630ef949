import { Module } from '@nestjs/common';
import { ModelPricesController } from './model-prices.controller';

/** The model price table's admin routes (the price book itself is global: `UsageMeterModule`). */
@Module({ controllers: [ModelPricesController] })
export class ModelPricesModule {}
