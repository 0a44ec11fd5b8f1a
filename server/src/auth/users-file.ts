import fs from 'node:fs';
import { ConfigFileError } from '../core/config-file.js';

const bcryptHash = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;

/**
 * Parses an htpasswd-style users file: one `user:hash` a line, `#` comments and blank lines ignored.
 * Only bcrypt hashes (`$2y$`, `$2a$`, `$2b$`) are accepted: the older htpasswd formats (MD5 `$apr1$`,
 * `{SHA}`, crypt, plain text) are too weak to guard an API. Throws a {@link ConfigFileError} naming the
 * line; an error never quotes a hash.
 */
export function parseUsersFile(text: string, file: string): Map<string, string> {
  const users = new Map<string, string>();
  text.split(/\r?\n/).forEach((line, index) => {
    const entry = line.trim();
    if (entry === '' || entry.startsWith('#')) return;
    const fail = (detail: string) => new ConfigFileError(file, detail, index + 1);
    const colon = entry.indexOf(':');
    if (colon <= 0) throw fail('expected "user:bcrypt-hash"');
    const name = entry.slice(0, colon);
    const hash = entry.slice(colon + 1);
    if (!bcryptHash.test(hash))
      throw fail(`the password of "${name}" is not a bcrypt hash ($2y$, $2a$ or $2b$); create it with "htpasswd -B"`);
    if (users.has(name)) throw fail(`user "${name}" appears twice`);
    users.set(name, hash);
  });
  return users;
}

/** Reads and parses the users file; a missing or unreadable file is a {@link ConfigFileError} too. */
export function loadUsersFile(file: string): Map<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigFileError(
      file,
      `AUTH_USERS_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return parseUsersFile(text, file);
}

/**
 * Why the users file may be readable by others than its owner (group or other permission bits set), or
 * `undefined` when only its owner may read it. Hashes are slow to crack, not impossible: `chmod 600` is the
 * fix. Handler processes run as the gateway's user, so no mode keeps them out (docs/handlers.md).
 */
export function usersFileExposure(file: string): string | undefined {
  const mode = fs.statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return (
    `AUTH_USERS_FILE is readable beyond its owner (mode ${mode.toString(8).padStart(3, '0')}): ` +
    `run "chmod 600" on it, as its password hashes are secrets`
  );
}

/** The cost factor of a bcrypt hash. */
export function bcryptCost(hash: string): number {
  return Number(hash.slice(4, 6));
}
