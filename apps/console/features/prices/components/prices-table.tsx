import type { ModelPriceJson } from '@agentdesk/api-contract';
import { formatDateTime } from '../../transcript';
import { visibleText } from '../../visible-text';

/** Price versions as a table: dollars per million tokens, from when, by whom. */
export function PricesTable({ prices, caption }: { prices: readonly ModelPriceJson[]; caption: string }) {
  if (prices.length === 0) return <p className="empty">No price versions.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Provider</th>
            <th scope="col" className="number">
              Input
            </th>
            <th scope="col" className="number">
              Cached input
            </th>
            <th scope="col" className="number">
              Output
            </th>
            <th scope="col" className="number">
              Thinking
            </th>
            <th scope="col">Effective from</th>
            <th scope="col">Added by</th>
          </tr>
        </thead>
        <tbody>
          {prices.map((price) => (
            <tr key={price.id}>
              <td className="mono" data-label="Model">
                {visibleText(price.model)}
              </td>
              <td data-label="Provider">{visibleText(price.provider)}</td>
              <td className="number" data-label="Input">
                ${price.inputUsdPerMillion}
              </td>
              <td className="number" data-label="Cached input">
                ${price.cachedInputUsdPerMillion}
              </td>
              <td className="number" data-label="Output">
                ${price.outputUsdPerMillion}
              </td>
              <td className="number" data-label="Thinking">
                ${price.thinkingUsdPerMillion}
              </td>
              <td data-label="Effective from">
                {Date.parse(price.effectiveFrom) === 0 ? (
                  'always (default)'
                ) : (
                  <time dateTime={price.effectiveFrom}>{formatDateTime(price.effectiveFrom)}</time>
                )}
                {price.current
                  ? ''
                  : Date.parse(price.effectiveFrom) > Date.now()
                    ? ' (upcoming)'
                    : ' (replaced)'}
              </td>
              <td className="mono" data-label="Added by">
                {price.createdBy === 'seed' ? 'default' : visibleText(price.createdBy)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
