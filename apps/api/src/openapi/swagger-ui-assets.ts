import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One static file of the docs page. */
export interface DocsAsset {
  readonly contentType: string;
  readonly body: string;
}

// @fastify/static is not a dependency, so the few Swagger UI files are served from swagger-ui-dist
// (a dependency of @nestjs/swagger) by a controller, cached after the first read.
const swaggerUiFiles: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
};

const initializer = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
});
`;

/** The HTML of `/docs`. */
export const docsPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>AgentDesk API</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/swagger-ui-standalone-preset.js"></script>
    <script src="/docs/swagger-initializer.js"></script>
  </body>
</html>
`;

const cache = new Map<string, DocsAsset>();

/** A docs asset by file name, or undefined for any other name. */
export function docsAsset(name: string): DocsAsset | undefined {
  if (name === 'swagger-initializer.js')
    return { contentType: 'application/javascript; charset=utf-8', body: initializer };
  const contentType = swaggerUiFiles[name];
  if (contentType === undefined) return undefined;
  let asset = cache.get(name);
  if (asset === undefined) {
    const folder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    asset = { contentType, body: readFileSync(join(folder, name), 'utf8') };
    cache.set(name, asset);
  }
  return asset;
}
