/** The sections of one Prism test-harness case file. */
export interface PrismCase {
  test: string;
  spec: string;
  server: string;
  command: string;
  /** The expected response and how strictly its body is compared. */
  expect: string;
  expectKind: 'expect' | 'expect-loose' | 'expect-keysOnly';
}

const sectionPattern = /====(server|test|spec|command|expect|expect-loose|expect-keysOnly)====\r?\n/gi;

/**
 * Splits a case file into its sections, the way Prism's own harness does (one regular expression
 * over `====name====` separators). Throws when a required section is missing.
 */
export function parseCaseFile(text: string): PrismCase {
  const parts = text.split(sectionPattern);
  const sections = new Map<string, string>();
  for (let i = 1; i + 1 < parts.length; i += 2) sections.set(parts[i].toLowerCase(), parts[i + 1]);
  const expectKind = (['expect', 'expect-loose', 'expect-keysonly'] as const).find((k) => sections.has(k));
  for (const required of ['spec', 'command']) {
    if (!sections.has(required)) throw new Error(`case file has no ====${required}==== section`);
  }
  if (!expectKind) throw new Error('case file has no ====expect==== section');
  return {
    test: (sections.get('test') ?? '').trim(),
    spec: sections.get('spec')!,
    server: (sections.get('server') ?? '').trim(),
    command: sections.get('command')!.trim(),
    expect: sections.get(expectKind)!,
    expectKind: expectKind === 'expect-keysonly' ? 'expect-keysOnly' : expectKind,
  };
}
