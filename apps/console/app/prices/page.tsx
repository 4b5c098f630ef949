import { requirePageScope } from '../../features/auth';
import { PricesPage } from '../../features/prices';

export const dynamic = 'force-dynamic';

export default async function Prices() {
  const access = await requirePageScope('usage:read');
  return <PricesPage access={access} />;
}
