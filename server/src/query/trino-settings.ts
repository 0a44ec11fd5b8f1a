import type { SettingsReader } from './settings-reader.js';

/** How the service proves who it is to Trino (at most one kind, from the `trino` section of sources.yaml). */
export type TrinoAuth =
  | { kind: 'none' }
  | { kind: 'password'; password: string }
  | { kind: 'jwt'; token: string }
  | { kind: 'oauth2'; tokenUrl: string; clientId: string; clientSecret: string; scope?: string };

/** The `trino` section of sources.yaml: where the cluster is, how to reach it and who the service is there. */
export interface TrinoSettings {
  server: string;
  user: string;
  auth: TrinoAuth;
  /** PEM file of the CA that signed Trino's certificate; Node's trusted CAs (plus NODE_EXTRA_CA_CERTS) when absent. */
  caFile?: string;
  /** `X-Trino-Source`: what Trino's query list shows as the client. */
  source: string;
  /** `X-Trino-Client-Tags`: tags Trino's resource groups can select on. */
  clientTags: string[];
  /** `X-Trino-Catalog` and `X-Trino-Schema` of the session: what unqualified names resolve against. */
  catalog?: string;
  schema?: string;
  /** Client protocol requests retried on 502/503/504 before giving up. */
  retries: number;
}

const loopbackHosts = ['127.0.0.1', 'localhost', '[::1]'];

/** Whether `url` is plain HTTP to another machine, where a secret would travel readable to every hop. */
function insecureRemote(url: string): boolean {
  const host = /^https?:\/\/([^/:\s]+|\[[^\]]+\])/.exec(url)?.[1] ?? '';
  return url.startsWith('http://') && !loopbackHosts.includes(host);
}

function readAuth(reader: SettingsReader, server: string): TrinoAuth {
  const password = reader.optionalString('password');
  const jwt = reader.optionalString('jwt');
  const oauth2 = reader.optionalChild('oauth2');
  const given = [password && 'password', jwt && 'jwt', oauth2 && 'oauth2'].filter(Boolean);
  if (given.length > 1)
    reader.fail(given[1] as string, `give one of password, jwt and oauth2, not ${given.join(' and ')}`);
  // Credentials over plain HTTP are readable to every hop; only the machine itself is exempt (a Trino beside the
  // server, or a test double). Trino itself refuses them over HTTP by default.
  if (given.length && insecureRemote(server))
    reader.fail(given[0] as string, `${given[0]} is sent only over HTTPS: use an https:// server URL`);
  if (password) return { kind: 'password', password };
  if (jwt) return { kind: 'jwt', token: jwt };
  if (!oauth2) return { kind: 'none' };
  oauth2.allowOnly(['token_url', 'client_id', 'client_secret', 'scope']);
  const tokenUrl = oauth2.string('token_url');
  if (!/^https?:\/\/[^/\s]+/.test(tokenUrl))
    oauth2.fail('token_url', '"token_url" must be an http(s) URL of the token endpoint');
  if (insecureRemote(tokenUrl))
    oauth2.fail('token_url', 'the client secret is sent only over HTTPS: use an https:// token_url');
  return {
    kind: 'oauth2',
    tokenUrl,
    clientId: oauth2.string('client_id'),
    clientSecret: oauth2.string('client_secret'),
    scope: oauth2.optionalString('scope'),
  };
}

/** Reads the `trino` section of sources.yaml; `baseDir` resolves a relative `ca_file`. */
export function readTrinoSettings(reader: SettingsReader, baseDir: string): TrinoSettings {
  reader.allowOnly([
    'server',
    'user',
    'password',
    'jwt',
    'oauth2',
    'ca_file',
    'source',
    'client_tags',
    'catalog',
    'schema',
    'retries',
  ]);
  const server = reader.string('server');
  if (!/^https?:\/\/[^/\s]+/.test(server))
    reader.fail('server', '"server" must be an http(s) URL such as https://trino:8443');
  const caFile = reader.has('ca_file') ? reader.path('ca_file', baseDir) : undefined;
  if (caFile && !server.startsWith('https://'))
    reader.fail('ca_file', '"ca_file" checks an HTTPS certificate: use an https:// server URL');
  const auth = readAuth(reader, server);
  const clientTags = reader.stringList('client_tags') ?? [];
  for (const tag of clientTags)
    if (/[,\s]/.test(tag))
      reader.fail('client_tags', `a client tag holds no comma or space, got ${JSON.stringify(tag)}`);
  return {
    server: server.replace(/\/+$/, ''),
    user: reader.string('user', 'adaptive-workbench'),
    auth,
    caFile,
    source: reader.string('source', 'adaptive-workbench'),
    clientTags,
    catalog: reader.has('catalog') ? reader.identifier('catalog') : undefined,
    schema: reader.has('schema') ? reader.identifier('schema') : undefined,
    retries: reader.integer('retries', 0, 20, 5),
  };
}
