import os from 'node:os';

/**
 * Builds the function that takes the server's own folders out of a text shown to clients: each of
 * `folders` (and the temp and home folders) becomes a name that says what it was (`<workspace>`,
 * `<temp>`, `~`), so an error can still say where without saying where on this machine.
 */
export function serverPathScrubber(folders: Record<string, string>): (text: string) => string {
  const named = Object.entries({ ...folders, '<temp>': os.tmpdir(), '~': os.homedir() })
    .map(([name, folder]) => [name, folder.replace(/\/+$/, '')] as const)
    // The root folder, or none, would match every path.
    .filter(([, folder]) => folder.length > 1)
    // The longest first: the workspace may lie inside the home folder.
    .sort((a, b) => b[1].length - a[1].length);
  return (text) => named.reduce((scrubbed, [name, folder]) => scrubbed.split(folder).join(name), text);
}
