import { NO_STORE, relayFromApi } from '../../api-client';
import { routeCaller } from '../../auth';
import { listPeople } from './people-api';

/** How many names the typeahead offers. */
const SUGGESTIONS = 8;

/**
 * `GET /users/suggest?q=`: names for the sessions filter's typeahead — the directory's prefix search
 * (name, email, external id), answered as `[{ value, label }]` for a `<datalist>`.
 */
export async function handlePeopleSuggestions(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 200);
  if (q === '') return Response.json([], { headers: NO_STORE });
  return relayFromApi(
    () => listPeople(caller.signedIn.credential, { q, cursor: undefined }, SUGGESTIONS),
    (page) =>
      Response.json(
        page.items.map((person) => ({
          value: person.displayName ?? person.externalId,
          label: [person.email ?? person.externalId, person.portalId]
            .filter((part) => part !== null)
            .join(' · '),
        })),
        { headers: NO_STORE },
      ),
  );
}
