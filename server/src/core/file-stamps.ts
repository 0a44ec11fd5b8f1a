import crypto from 'node:crypto';
import fs from 'node:fs';

/**
 * Size and modification time of each file, one line each: equal stamps mean unchanged files, so a
 * reload can keep what it built from them. `undefined` when a file is gone.
 */
export function stampsOf(files: readonly string[]): string | undefined {
  try {
    return files
      .map((file) => {
        const stat = fs.statSync(file);
        return `${file}:${stat.size}:${stat.mtimeMs}`;
      })
      .join('\n');
  } catch {
    return undefined;
  }
}

/** A hash of the files' contents: equal digests mean equal files, whatever their times say. `undefined` when one is
 * gone. */
export function digestOf(files: readonly string[]): string | undefined {
  try {
    const hash = crypto.createHash('sha256');
    for (const file of files) hash.update(fs.readFileSync(file)).update('\0');
    return hash.digest('base64');
  } catch {
    return undefined;
  }
}
