import { describeModelPrices } from './suites/model-prices.suite';

describeModelPrices('postgres');
