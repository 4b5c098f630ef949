/** A registered route: its method and its Fastify path pattern (`/v1/sessions/:id`). */
export interface RoutePattern {
  readonly method: string;
  readonly path: string;
}

/** The path of a request URL: no query string, no fragment. */
export function pathOfUrl(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

function segmentsMatch(pattern: string, path: string): boolean {
  const patternSegments = pattern.split('/');
  const pathSegments = path.split('/');
  if (patternSegments.length !== pathSegments.length) return false;
  return patternSegments.every((segment, index) => {
    const actual = pathSegments[index]!;
    return segment.startsWith(':') ? actual.length > 0 : segment === actual;
  });
}

/**
 * The methods some route serves `path` with, sorted (`HEAD` comes with `GET`). Empty when no
 * route has this path, which is then a 404; otherwise a request with another method is a 405
 * whose `Allow` header lists these.
 */
export function allowedMethodsFor(routes: readonly RoutePattern[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) if (segmentsMatch(route.path, path)) methods.add(route.method);
  return [...methods].sort();
}
