type Env = Record<string, string | undefined>;

/**
 * What every handler process is given of the gateway's environment: where programs and the home folder are,
 * the locale and the time zone, the mode, where temporary files and trusted certificates are, and the Python
 * path. Nothing else: the gateway's own settings hold its secrets (IDP_CLIENT_SECRET, WORKBENCH_TOKEN, the job
 * store's URL, the users file's place). docs/handlers.md lists them.
 */
const basicNames = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'NODE_ENV',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'PYTHONPATH',
];

/** The names of `HANDLER_ENV` (comma-separated); `undefined` when one cannot be a variable's name. */
export function declaredHandlerNames(list: string | undefined): string[] | undefined {
  const names = (list ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.every((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) ? names : undefined;
}

/**
 * The environment handler processes start with: the basic variables above, the locale's `LC_*`, and the
 * `declared` ones (`HANDLER_ENV`, for what the workspace's handlers need: `ORDERS_DB_URL,PAYMENT_API_KEY`),
 * each as the gateway has it.
 */
export function handlerEnvironment(env: Env, declared: readonly string[]): Record<string, string> {
  const names = new Set([...basicNames, ...Object.keys(env).filter((name) => name.startsWith('LC_')), ...declared]);
  const result: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) result[name] = value;
  }
  return result;
}
