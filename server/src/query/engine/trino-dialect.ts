/**
 * The SQL dialect layer: the service writes DuckDB's spelling (the SPARQL translation, the natural-language
 * plans, value sampling, and the SQL users send, which the SELECT check parses with DuckDB's parser); in
 * Trino mode every statement passes through {@link toTrinoSpelling}, which respells each function, cast and
 * literal Trino spells differently while keeping DuckDB's meaning (docs/query.md, "SQL dialects", has the
 * table of both spellings).
 */

/** One lexical piece of SQL text: its kind and its exact text. */
interface Token {
  kind: 'word' | 'string' | 'quoted' | 'number' | 'space' | 'punct';
  text: string;
}

const wordPattern = /^[A-Za-z_][A-Za-z0-9_$]*/;
const numberPattern = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;

/** The end of the literal or quoted name that starts at `start` with `quote` (a doubled quote stays inside). */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote && sql[i + 1] === quote) i += 2;
    else if (sql[i] === quote) return i + 1;
    else i++;
  }
  return sql.length;
}

/** Splits `sql` into tokens; comments count as space (generated SQL has none, users' SQL may). */
function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const rest = sql.slice(i);
    const c = sql[i];
    let token: Token;
    if (c === "'" || c === '"') {
      token = { kind: c === "'" ? 'string' : 'quoted', text: sql.slice(i, closingQuote(sql, i, c)) };
    } else if (/\s/.test(c)) token = { kind: 'space', text: /^\s+/.exec(rest)![0] };
    else if (rest.startsWith('--')) token = { kind: 'space', text: /^--[^\n]*/.exec(rest)![0] };
    else if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      token = { kind: 'space', text: sql.slice(i, end < 0 ? sql.length : end + 2) };
    } else if (wordPattern.test(rest)) token = { kind: 'word', text: wordPattern.exec(rest)![0] };
    else if (numberPattern.test(rest)) token = { kind: 'number', text: numberPattern.exec(rest)![0] };
    else token = { kind: 'punct', text: rest.startsWith(':=') || rest.startsWith('::') ? rest.slice(0, 2) : c };
    tokens.push(token);
    i += token.text.length;
  }
  return tokens;
}

/** The index of the token after the `)` matching the `(` at `open`. */
function afterClosing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i].kind !== 'punct') continue;
    if (tokens[i].text === '(' || tokens[i].text === '[') depth++;
    else if (tokens[i].text === ')' || tokens[i].text === ']') depth--;
    if (depth === 0) return i + 1;
  }
  return tokens.length;
}

/** The arguments between `(` at `open` and its `)`, split at top-level commas, each respelled. */
function argumentsOf(tokens: Token[], open: number, end: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let from = open + 1;
  for (let i = open + 1; i < end - 1; i++) {
    const t = tokens[i];
    if (t.kind !== 'punct') continue;
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') depth--;
    else if (t.text === ',' && depth === 0) {
      args.push(respell(tokens.slice(from, i)).trim());
      from = i + 1;
    }
  }
  const last = respell(tokens.slice(from, end - 1)).trim();
  if (last !== '' || args.length > 0) args.push(last);
  return args;
}

/** An argument without DuckDB's `name := ` prefix (struct_pack's fields). */
const unnamed = (arg: string): string => arg.replace(/^[A-Za-z_][A-Za-z0-9_]*\s*:=\s*/, '');

/** A leading DISTINCT of an aggregate's argument, kept apart from the value it qualifies. */
function distinctOf(arg: string): { distinct: string; value: string } {
  const match = /^DISTINCT\s+/i.exec(arg);
  return match ? { distinct: 'DISTINCT ', value: arg.slice(match[0].length) } : { distinct: '', value: arg };
}

/** DuckDB strftime patterns and their MySQL-style `date_format` equivalents in Trino. */
const datePatterns: Record<string, string> = {
  '%Y': '%Y',
  '%m': '%m',
  '%d': '%d',
  '%H': '%H',
  '%M': '%i',
  '%S': '%s',
  '%A': '%W',
  '%B': '%M',
  '%b': '%b',
  '%a': '%a',
  '%y': '%y',
  '%j': '%j',
  '%%': '%%',
};

/** A strftime pattern literal in date_format's spelling; undefined for a pattern with a specifier not mapped. */
function datePattern(literal: string): string | undefined {
  if (!/^'.*'$/s.test(literal)) return undefined;
  let unknown = false;
  const text = literal.replace(/%./g, (spec) => datePatterns[spec] ?? ((unknown = true), spec));
  return unknown ? undefined : text;
}

/** A replacement literal in RE2's syntax (`\1` a group, `\\` a backslash) in Java's (`$1`, `\$` a dollar). */
function javaReplacement(literal: string): string {
  return literal.replace(/\\(\\|\d)|\$/g, (match, escaped: string | undefined) =>
    match === '$' ? '\\$' : escaped === '\\' ? '\\\\' : `$${escaped}`,
  );
}

type Respelling = (args: string[]) => string | undefined;

/**
 * Functions Trino spells differently, each with DuckDB's meaning kept. A respelling that answers
 * undefined leaves the call as written (Trino then reports what it cannot run).
 */
const functionRespellings: Record<string, Respelling> = {
  // DuckDB numbers days Sunday 0 .. Saturday 6, Trino's day_of_week Monday 1 .. Sunday 7.
  dayofweek: ([x]) => `(day_of_week(${x}) % 7)`,
  dayname: ([x]) => `date_format(${x}, '%W')`,
  // DuckDB averages decimals (and integers) as DOUBLE; Trino's avg over a decimal rounds to its scale.
  avg: ([x]) => {
    const { distinct, value } = distinctOf(x);
    return `avg(${distinct}CAST(${value} AS DOUBLE))`;
  },
  contains: ([text, part]) => `(strpos(${text}, ${part}) > 0)`,
  strftime: ([x, pattern]) => {
    const format = datePattern(pattern);
    return format === undefined ? undefined : `date_format(${x}, ${format})`;
  },
  // Trino compares rows field by field, as DuckDB compares structs: the names are not needed to order by one.
  struct_pack: (args) => `ROW(${args.map(unnamed).join(', ')})`,
  arg_max: ([value, key]) => `max_by(${value}, ${key})`,
  arg_min: ([value, key]) => `min_by(${value}, ${key})`,
  // Trino's max_by and min_by keep a NULL value at the chosen row, as DuckDB's _null forms do.
  arg_max_null: ([value, key]) => `max_by(${value}, ${key})`,
  arg_min_null: ([value, key]) => `min_by(${value}, ${key})`,
  list: ([x]) => `array_agg(${x})`,
  // DuckDB slices [begin, end]; Trino's slice takes the start and a length.
  array_slice: ([list, begin, end]) =>
    begin === '1' ? `slice(${list}, 1, ${end})` : `slice(${list}, ${begin}, (${end}) - (${begin}) + 1)`,
  string_agg: ([x, separator]) => {
    const { distinct, value } = distinctOf(x);
    return `array_join(array_agg(${distinct}${value}), ${separator ?? "','"})`;
  },
  // Trino's regular expressions (Java's) take flags inline.
  regexp_matches: ([text, pattern, flags]) =>
    `regexp_like(${text}, ${flags ? `'(?' || ${flags} || ')' || ` : ''}${pattern})`,
  regexp_replace: ([text, pattern, replacement, flags]) => {
    // Trino always replaces every match; DuckDB only with the g flag: without it there is no equal.
    if (!flags || !/^'[a-z]*g[a-z]*'$/.test(flags) || !/^'.*'$/s.test(replacement)) return undefined;
    const inline = flags.replace(/g/, '');
    const prefix = inline === "''" ? '' : `'(?' || ${inline} || ')' || `;
    return `regexp_replace(${text}, ${prefix}${pattern}, ${javaReplacement(replacement)})`;
  },
  hex: ([x]) => `to_hex(${x})`,
  isnan: ([x]) => `is_nan(${x})`,
  isinf: ([x]) => `is_infinite(${x})`,
  isfinite: ([x]) => `is_finite(${x})`,
  trunc: ([x]) => `truncate(${x})`,
  epoch: ([x]) => `to_unixtime(${x})`,
  // DuckDB's full match is Trino's regexp_like anchored at both ends.
  regexp_full_match: ([text, pattern]) => `regexp_like(${text}, '^(?:' || ${pattern} || ')$')`,
  // DuckDB hashes text to lower-case hex text; Trino hashes bytes to bytes.
  ...Object.fromEntries(
    ['md5', 'sha1', 'sha256'].map((name) => [name, ([x]: string[]) => `lower(to_hex(${name}(to_utf8(${x}))))`]),
  ),
  len: ([x]) => `length(${x})`,
  list_contains: ([list, value]) => `contains(${list}, ${value})`,
  suffix: ([text, end]) => `ends_with(${text}, ${end})`,
  prefix: ([text, start]) => `starts_with(${text}, ${start})`,
};

/** DuckDB type names with another name (or no equal) in Trino. */
const typeRespellings: Record<string, string> = {
  hugeint: 'DECIMAL(38,0)',
  blob: 'VARBINARY',
  timestamptz: 'TIMESTAMP WITH TIME ZONE',
};

/** Whether the token before `i` (spaces skipped) is `text`. */
function previousIs(tokens: Token[], i: number, text: string): boolean {
  for (let j = i - 1; j >= 0; j--) if (tokens[j].kind !== 'space') return tokens[j].text.toUpperCase() === text;
  return false;
}

/** The index of the next non-space token from `i`. */
function nextSolid(tokens: Token[], i: number): number {
  let j = i;
  while (j < tokens.length && tokens[j].kind === 'space') j++;
  return j;
}

/** After `LIMIT` (its count at `count`): the `OFFSET` amount that follows, and the index after it. */
function limitOffset(tokens: Token[], count: number): { offset: string; next: number } | undefined {
  if (tokens[count]?.kind !== 'number') return undefined;
  const keyword = nextSolid(tokens, count + 1);
  const amount = nextSolid(tokens, keyword + 1);
  if (tokens[keyword]?.text.toUpperCase() !== 'OFFSET' || tokens[amount]?.kind !== 'number') return undefined;
  return { offset: tokens[amount].text, next: amount + 1 };
}

/** Respells a function call at `i` (its name) whose `(` is at `open`; the text and the index after it. */
function respellCall(tokens: Token[], i: number, open: number): { text: string; next: number } {
  const end = afterClosing(tokens, open);
  const respelling = previousIs(tokens, i, '.') ? undefined : functionRespellings[tokens[i].text.toLowerCase()];
  const respelled = respelling?.(argumentsOf(tokens, open, end));
  // A call (or keyword) left as written keeps its text; only what is inside may be respelled.
  const asWritten = () =>
    tokens
      .slice(i, open + 1)
      .map((t) => t.text)
      .join('') + respell(tokens.slice(open + 1, end));
  return { text: respelled ?? asWritten(), next: end };
}

/** Respells a sequence of tokens (a whole statement or one argument). */
function respell(tokens: Token[]): string {
  let out = '';
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i];
    const open = nextSolid(tokens, i + 1);
    if (t.kind === 'word' && tokens[open]?.text === '(' && !previousIs(tokens, i, 'AS')) {
      const call = respellCall(tokens, i, open);
      out += call.text;
      i = call.next;
      continue;
    }
    const typeName = typeRespellings[t.text.toLowerCase()];
    if (t.kind === 'word' && typeName && previousIs(tokens, i, 'AS')) out += typeName;
    else if (t.kind === 'word' && t.text.toUpperCase() === 'INTERVAL' && tokens[open]?.kind === 'number') {
      // Trino's interval literal quotes its amount: INTERVAL '3' MONTH.
      out += `INTERVAL '${tokens[open].text}'`;
      i = open + 1;
      continue;
    } else if (t.kind === 'word' && t.text.toUpperCase() === 'LIMIT' && limitOffset(tokens, open)) {
      // Trino reads OFFSET before LIMIT.
      const { offset, next } = limitOffset(tokens, open)!;
      out += `OFFSET ${offset} LIMIT ${tokens[open].text}`;
      i = next;
      continue;
    } else if (t.kind === 'punct' && t.text === '/') out += '* 1e0 /';
    else out += t.text;
    i++;
  }
  return out;
}

/** The index of the `(` or `[` matching the `)` or `]` at `close`. */
function openingOf(tokens: Token[], close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    if (tokens[i].text === ')' || tokens[i].text === ']') depth++;
    else if (tokens[i].text === '(' || tokens[i].text === '[') depth--;
    if (depth === 0) return i;
  }
  return 0;
}

/** The index where the operand ending just before `end` (a dotted name, literal, call or parenthesis) starts. */
function operandStart(tokens: Token[], end: number): number {
  let i = end - 1;
  while (i > 0 && tokens[i].kind === 'space') i--;
  for (;;) {
    if (tokens[i].text === ')' || tokens[i].text === ']') {
      i = openingOf(tokens, i);
      if (i > 0 && tokens[i - 1].kind === 'word') i--;
    }
    if (i < 2 || tokens[i - 1].text !== '.') return i;
    i -= 2;
  }
}

/** DuckDB's `value::TYPE` casts as `CAST(value AS TYPE)`, the one spelling both engines read. */
function castsSpelledOut(tokens: Token[]): Token[] {
  const out = [...tokens];
  for (let i = out.findIndex((t) => t.text === '::'); i >= 0; i = out.findIndex((t) => t.text === '::')) {
    const start = operandStart(out, i);
    let end = nextSolid(out, i + 1) + 1;
    if (out[end]?.text === '(') end = afterClosing(out, end);
    const word = (text: string): Token => ({ kind: 'word', text });
    const punct = (text: string): Token => ({ kind: 'punct', text });
    const type = out.slice(nextSolid(out, i + 1), end);
    const operand = out.slice(start, i).filter((t, k, all) => k < all.length - 1 || t.kind !== 'space');
    const space: Token = { kind: 'space', text: ' ' };
    out.splice(start, end - start, word('CAST'), punct('('), ...operand, space, word('AS'), space, ...type, punct(')'));
  }
  return out;
}

/**
 * `sql` (DuckDB's spelling) in Trino's: functions, casts and interval literals respelled, integer and
 * decimal division made DOUBLE division as in DuckDB (`a / b` becomes `a * 1e0 / b`, which Trino groups
 * as `(a * 1e0) / b`); names, literals and everything else as written.
 */
export function toTrinoSpelling(sql: string): string {
  return respell(castsSpelledOut(tokenize(sql)));
}
