import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { routeAreas } from '../core/routes.js';
import { httpError } from '../core/errors.js';
import { packageRoot } from '../core/version.js';
import { preferredCoding, type ContentCoding } from '../gateway/index.js';

/** Where the workbench UI is served. */
export const workbenchUiPrefix = routeAreas.workbenchUi.prefix;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

// Everything the UI loads comes from this server: no CDN, no inline script. Monaco injects styles,
// Swagger UI shows data: images; workers are files of the build. `connect` adds the origins the page may
// call besides this server (the identity provider's, whose token endpoint the sign-in calls).
const contentSecurityPolicy = (connect: readonly string[]) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    ["connect-src 'self'", ...connect].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');

/**
 * The Vite build of the renderer: `dist/renderer` of the repository, beside the server package
 * (`server/`), whether the server runs from `server/dist/src/...` or from its sources. The headless
 * package installed on its own has no renderer.
 */
export function defaultRendererDir(): string {
  return path.join(packageRoot, '..', 'dist', 'renderer');
}

/** File endings of the copies the renderer's build compresses ahead (renderer/vite.config.ts), by coding. */
export const precompressedEndings: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

/** Whether `file` is a file that really lies in `root` (no symlink out of it). */
function isFileInside(root: string, file: string): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat?.isFile() === true && fs.realpathSync(file).startsWith(fs.realpathSync(root) + path.sep);
}

/**
 * The build's compressed copy of `file` in the coding `acceptEncoding` prefers, when the build made one:
 * compressing at build time costs nothing per request, and the page's 5 MB of scripts shrink to about 1.3 MB.
 */
function precompressed(
  root: string,
  file: string,
  acceptEncoding: string | undefined,
): { coding: ContentCoding; file: string } | undefined {
  const made = (Object.keys(precompressedEndings) as ContentCoding[]).filter((coding) =>
    isFileInside(root, file + precompressedEndings[coding]),
  );
  const coding = preferredCoding(acceptEncoding, made);
  return coding && { coding, file: file + precompressedEndings[coding] };
}

function sendFile(reply: FastifyReply, root: string, file: string, immutable: boolean): FastifyReply {
  reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('vary', 'accept-encoding');
  const compressed = precompressed(root, file, reply.request.headers['accept-encoding']);
  if (compressed) reply.header('content-encoding', compressed.coding);
  return reply
    .type(contentTypes[path.extname(file)] ?? 'application/octet-stream')
    .send(fs.createReadStream(compressed?.file ?? file));
}

/**
 * Serves the built renderer at `/workbench/`. Only plain files of the build folder are served:
 * a request path with `..`, hidden segments or anything that resolves elsewhere gets 404. The page
 * itself needs no token (it is the same for everyone); every API call it makes does.
 */
export function serveRenderer(app: FastifyInstance, rendererDir: string, connectSources: string[] = []): void {
  const root = path.resolve(rendererDir);
  const policy = contentSecurityPolicy(connectSources);

  app.get(`${workbenchUiPrefix}/`, (_request, reply) => {
    const index = path.join(root, 'index.html');
    if (!fs.existsSync(index)) return reply.code(503).send(httpError('WB_UI_NOT_BUILT', [index]).body());
    reply.header('content-security-policy', policy);
    // The page URL carries the token: never send it on as a referrer.
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    return sendFile(reply, root, index, false);
  });

  app.get<{ Params: { '*': string } }>(`${workbenchUiPrefix}/*`, (request, reply) => {
    const relative = request.params['*'];
    const segments = relative.split('/');
    const file = path.join(root, ...segments);
    const plain =
      segments.every((s) => s !== '' && !s.startsWith('.')) && !relative.includes('\\') && !relative.includes('\0');
    if (!plain || !file.startsWith(root + path.sep) || !isFileInside(root, file))
      return reply.code(404).send(httpError('WB_UI_FILE_NOT_FOUND', [relative]).body());
    return sendFile(reply, root, file, segments[0] === 'assets');
  });
}
