export { PricesPage } from './components/prices-page';
export { handleAddPrice } from './server/price-handlers';
