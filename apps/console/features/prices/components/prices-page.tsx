import { can } from '@agentdesk/authz';
import { priceProviders, type ModelPriceListJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { listModelPrices } from '../server/model-prices';
import { AddPriceForm } from './add-price-form';
import { PricesTable } from './prices-table';

/**
 * The model price table: the price in effect for each model, the history of every version, and
 * (for admins) a form to add a version. Needs `usage:read`; adding needs `prices:write`.
 */
export async function PricesPage({ access }: { access: PageAccess }) {
  const { signedIn, mayRead } = access;
  const mayWrite = can(signedIn.principal, 'prices:write');
  let list: ModelPriceListJson | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      list = await listModelPrices(signedIn.credential);
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/prices">
      <h1>Model prices</h1>
      {!mayRead ? (
        <MissingScopeNotice access={access} readWhat="see model prices" />
      ) : (
        <>
          <p className="muted">
            What each model’s calls cost, per million tokens. Every call is costed when it is recorded, with
            the price in effect then: a new version changes later calls only. A model with no price here has
            an unknown cost.
          </p>
          {mayWrite && <AddPriceForm providers={priceProviders} />}
          {failure !== undefined && <ApiProblem error={failure} />}
          {list !== undefined && (
            <>
              <h2>Current prices</h2>
              <PricesTable
                prices={list.items.filter((price) => price.current)}
                caption="Prices in effect now"
              />
              <h2>History</h2>
              <PricesTable
                prices={list.items.filter((price) => !price.current)}
                caption="Earlier and upcoming versions"
              />
            </>
          )}
        </>
      )}
    </ConsoleShell>
  );
}
