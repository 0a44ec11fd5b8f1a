#!/usr/bin/env node
// Prints, per renderer/src folder, the lines of *.test.ts(x) against the lines of other .ts(x) files,
// so the test ratio issue 40 asks for can be measured before and after a change.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../src/', import.meta.url).pathname;

/** Counts non-blank lines of one file. */
function lineCount(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;
}

/** Walks a folder and yields every .ts/.tsx file path. */
function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else if (/\.tsx?$/.test(name)) yield p;
  }
}

const folders = new Map();
for (const file of walk(root)) {
  const folder =
    relative(root, file)
      .split('/')[0]
      .replace(/\.tsx?$/, '') || '.';
  const key = folder.includes('.') ? '(root)' : folder;
  const row = folders.get(key) ?? { test: 0, code: 0 };
  if (/\.test\.tsx?$/.test(file)) row.test += lineCount(file);
  else row.code += lineCount(file);
  folders.set(key, row);
}
let test = 0;
let code = 0;
console.log('folder'.padEnd(12), 'test'.padStart(6), 'code'.padStart(6), 'ratio'.padStart(6));
for (const [name, row] of [...folders].sort()) {
  test += row.test;
  code += row.code;
  const ratio = row.code ? (row.test / row.code).toFixed(2) : '-';
  console.log(name.padEnd(12), String(row.test).padStart(6), String(row.code).padStart(6), ratio.padStart(6));
}
console.log(
  'total'.padEnd(12),
  String(test).padStart(6),
  String(code).padStart(6),
  (test / code).toFixed(2).padStart(6),
);
