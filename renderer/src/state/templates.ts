import { kindSuffix } from './file-names.js';

/** `orders-api.openapi.yaml` -> `orders-api`; `orders_api_handler.ts` -> `orders-api` (the mount the gateway uses). */
function mountOf(fileName: string): string {
  return fileName
    .replace(kindSuffix, '')
    .replace(/\.[^.]+$/, '')
    .replace(/_/g, '-');
}

/** What a new file starts with: a small working spec or handler, so the first save already serves something. */
export function newFileContent(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const mount = mountOf(name);
  if (/^specs\/.*\.openapi\.ya?ml$/i.test(path)) {
    return `openapi: 3.0.3
info:
  title: ${mount}
  version: 1.0.0
servers:
  - url: /api/adaptive/${mount}
paths:
  /hello:
    get:
      summary: Say hello
      responses:
        '200':
          description: A greeting
          content:
            application/json:
              example:
                message: Hello from ${mount}
`;
  }
  if (/^handlers\/.*_handler\.(ts|mts)$/i.test(path)) {
    return `import { HTTPException, Router, t } from 'adaptive-workbench/handler';

export const router = new Router();

router.get('/hello/{name}', { params: t.Object({ name: t.String() }) }, ({ params }) => {
  if (params.name === 'nobody') throw new HTTPException(404, 'Nobody is here');
  return { message: \`Hello, \${params.name}\` };
});
`;
  }
  return '';
}
