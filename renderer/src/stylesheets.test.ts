import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxFileLines } from '../../eslint.config.mjs';

/**
 * The gate ESLint cannot keep for stylesheets: every renderer/src/**\/*.css file within the line cap the
 * TypeScript files have, and no colour written outside the theme, so a status tone has one definition.
 */
const root = new URL('.', import.meta.url).pathname;
const tokensFile = 'base/tokens.css';

/** A stylesheet without its comments (a comment may name a colour; only declarations count). */
function withoutComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, '');
}

/** The lines ESLint's max-lines would count: neither blank nor only comment. */
function countedLines(css: string): number {
  return withoutComments(css)
    .split('\n')
    .filter((line) => line.trim() !== '').length;
}

/** Colour functions and the named colours a status might be written with. */
const colourFunction = /\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/i;
const hexColour = /#[0-9a-f]{3,8}\b/i;
const namedColour =
  /\b(?:white|black|red|green|lime|blue|navy|yellow|orange|olive|maroon|purple|fuchsia|teal|aqua|silver|gray|grey)\b/i;

/** Every declaration of the stylesheet that writes a colour literal, as `property: value`. */
function colourLiterals(css: string): string[] {
  const declarations = withoutComments(css).matchAll(/([-\w]+)\s*:\s*([^;{}]+)(?=[;}])/g);
  return [...declarations]
    .filter(([, , value]) => colourFunction.test(value!) || hexColour.test(value!) || namedColour.test(value!))
    .map(([, property, value]) => `${property}: ${value!.trim()}`);
}

/** The renderer's stylesheets, as paths relative to renderer/src. */
function stylesheets(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return stylesheets(path);
    return entry.name.endsWith('.css') ? [relative(root, path)] : [];
  });
}

describe('the rules', () => {
  it('counts the lines ESLint counts: not blank ones, not comments', () => {
    const css = '/* A comment\n   over two lines. */\n\n.a {\n  color: var(--text); /* why */\n}\n';
    expect(countedLines(css)).toBe(3);
    expect(countedLines('.a {}\n'.repeat(maxFileLines + 1))).toBeGreaterThan(maxFileLines);
  });

  it('finds a raw colour in any notation, and not a token, a selector or a comment', () => {
    const css = `#root .a:hover { color: #b3141f; }
.b { background: rgb(0 0 0 / 25%); border: 1px solid red; }
.c { color: var(--tone-error); white-space: nowrap; }
/* #fff in a comment */ .d { box-shadow: 0 1px 2px hsl(0 0% 0%) }`;
    expect(colourLiterals(css)).toEqual([
      'color: #b3141f',
      'background: rgb(0 0 0 / 25%)',
      'border: 1px solid red',
      'box-shadow: 0 1px 2px hsl(0 0% 0%)',
    ]);
  });
});

describe('renderer stylesheets', () => {
  const files = stylesheets();

  it('are found (the walk reaches the theme and the features)', () => {
    expect(files).toContain(tokensFile);
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s is within the line cap of the TypeScript files', (file) => {
    expect(countedLines(readFileSync(join(root, file), 'utf8'))).toBeLessThanOrEqual(maxFileLines);
  });

  it.each(files.filter((file) => file !== tokensFile))(
    '%s takes its colours from the theme (base/tokens.css)',
    (file) => {
      expect(colourLiterals(readFileSync(join(root, file), 'utf8'))).toEqual([]);
    },
  );
});
