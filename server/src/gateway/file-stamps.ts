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
