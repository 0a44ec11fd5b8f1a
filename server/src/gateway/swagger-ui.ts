import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { httpError } from '../core/errors.js';

const assetDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files served: no path from the request ever reaches the file system. */
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'oauth2-redirect.html': 'text/html; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const indexHtml = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Adaptive gateway – API documentation</title>
  <link rel="stylesheet" href="./swagger-ui.css">
  <link rel="stylesheet" href="./index.css">
  <link rel="icon" type="image/png" href="./favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="./swagger-ui-bundle.js"></script>
  <script src="./swagger-ui-standalone-preset.js"></script>
  <script src="./swagger-initializer.js"></script>
</body>
</html>
`;

// Try it out must call this server, whatever host the page was reached through.
const initializer = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: new URL('../openapi.json', window.location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;

/** Serves Swagger UI on the gateway's merged document from the local swagger-ui-dist package (no CDN). */
export function registerSwaggerUi(app: FastifyInstance, prefix: string): void {
  app.get(`${prefix}/swagger-ui/`, (request, reply) => {
    // The router ignores trailing slashes, but the page's relative asset paths need one: without it
    // they resolve one folder up and the page stays blank.
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    if (!path.endsWith('/')) return reply.redirect(`${path}/${query === -1 ? '' : request.url.slice(query)}`, 301);
    return reply.type('text/html; charset=utf-8').send(indexHtml);
  });
  app.get(`${prefix}/swagger-ui/swagger-initializer.js`, (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').send(initializer),
  );
  app.get<{ Params: { asset: string } }>(`${prefix}/swagger-ui/:asset`, (request, reply) => {
    const type = Object.hasOwn(assets, request.params.asset) ? assets[request.params.asset] : undefined;
    if (!type) return reply.code(404).send(httpError('SWAGGER_UI_ASSET_NOT_FOUND', [request.params.asset]).body());
    reply.header('cache-control', 'public, max-age=3600');
    return reply.type(type).send(fs.createReadStream(path.join(assetDir, request.params.asset)));
  });
}
