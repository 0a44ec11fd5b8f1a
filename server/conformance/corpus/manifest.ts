import fs from 'node:fs';
import path from 'node:path';

/** One entry document of the corpus (`role` = `spec` in `MANIFEST.tsv`). */
export interface CorpusSpec {
  /** Path relative to the corpus folder: `<category>/<source-slug>/<original path>`. */
  file: string;
  category: string;
  /** The folder used as the specs directory: `<category>/<source-slug>`, so relative `$ref`s resolve. */
  specsRoot: string;
  bytes: number;
  note: string;
}

/** Reads the entry specs of `MANIFEST.tsv` (tab-separated, header line first). */
export function readCorpusManifest(corpusDir: string): CorpusSpec[] {
  const text = fs.readFileSync(path.join(corpusDir, 'MANIFEST.tsv'), 'utf8');
  const [header, ...lines] = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const columns = header.split('\t');
  const column = (name: string) => {
    const index = columns.indexOf(name);
    if (index === -1) throw new Error(`MANIFEST.tsv has no "${name}" column`);
    return index;
  };
  const [fileAt, categoryAt, roleAt, bytesAt, noteAt] = ['file', 'category', 'role', 'bytes', 'note'].map(column);
  const specs: CorpusSpec[] = [];
  for (const line of lines) {
    const cells = line.split('\t');
    if (cells[roleAt] !== 'spec') continue;
    const file = cells[fileAt];
    const [category, slug] = file.split('/');
    if (!category || !slug) throw new Error(`MANIFEST.tsv: "${file}" is not <category>/<source-slug>/...`);
    specs.push({
      file,
      category: cells[categoryAt] || category,
      specsRoot: `${category}/${slug}`,
      bytes: Number(cells[bytesAt]) || 0,
      note: cells[noteAt] ?? '',
    });
  }
  return specs;
}
