import jsYaml from 'js-yaml';

/**
 * The scalars of YAML 1.2's core schema exactly as the `yaml` package resolves them (its `core` schema: the same
 * patterns, the same conversions, no `0b`, no `_` separators, no signed hex), so both parsers give the same values.
 */
const nullPattern = /^(?:~|[Nn]ull|NULL)?$/;
const boolPattern = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const intPattern = /^[-+]?[0-9]+$/;
const octPattern = /^0o[0-7]+$/;
const hexPattern = /^0x[0-9a-fA-F]+$/;
const nanInfPattern = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const expPattern = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const floatPattern = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

const coreSchema = jsYaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    new jsYaml.Type('tag:yaml.org,2002:null', {
      kind: 'scalar',
      resolve: (data: string | null) => data === null || nullPattern.test(data),
      construct: () => null,
    }),
    new jsYaml.Type('tag:yaml.org,2002:bool', {
      kind: 'scalar',
      resolve: (data: string | null) => data !== null && boolPattern.test(data),
      construct: (data: string) => data[0] === 't' || data[0] === 'T',
    }),
    new jsYaml.Type('tag:yaml.org,2002:int', {
      kind: 'scalar',
      resolve: (data: string | null) =>
        data !== null && (octPattern.test(data) || intPattern.test(data) || hexPattern.test(data)),
      construct: (data: string) =>
        octPattern.test(data)
          ? parseInt(data.substring(2), 8)
          : hexPattern.test(data)
            ? parseInt(data.substring(2), 16)
            : parseInt(data, 10),
    }),
    new jsYaml.Type('tag:yaml.org,2002:float', {
      kind: 'scalar',
      resolve: (data: string | null) =>
        data !== null && (nanInfPattern.test(data) || expPattern.test(data) || floatPattern.test(data)),
      construct: (data: string) =>
        !nanInfPattern.test(data)
          ? parseFloat(data)
          : data.slice(-3).toLowerCase() === 'nan'
            ? NaN
            : data[0] === '-'
              ? Number.NEGATIVE_INFINITY
              : Number.POSITIVE_INFINITY,
    }),
  ],
});

/** An explicit key (`? key`) or an empty flow key (`{: value}`): the two parsers name such keys differently. */
const explicitOrEmptyKey = /(?:^|[\s[{,])\?(?:[ \t]|$)|[{,][ \t]*:(?:[\s,\]}]|$)/m;

/** A directive (`%YAML 1.1`, `%TAG`): it may change how the document is read. */
const directive = /^%/m;

/** Whether the next character on the line after `position` (spaces and tabs skipped) is `:`. */
function colonFollows(input: string, position: number): boolean {
  let at = position;
  while (input[at] === ' ' || input[at] === '\t') at++;
  return input[at] === ':';
}

/**
 * The first character of content at or after `position` (white space, line breaks and comments skipped) and its
 * line, counted from `line`.
 */
function contentAfter(input: string, position: number, line: number): { char: string | undefined; line: number } {
  let at = position;
  let atLine = line;
  for (;;) {
    const char = input[at];
    if (char === '#') while (at < input.length && input[at] !== '\n') at++;
    else if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      if (char === '\n') atLine++;
      at++;
    } else return { char, line: atLine };
  }
}

/**
 * Whether a node that starts with `char` and closed as `kind` is a flow collection or a quoted scalar: js-yaml does
 * not hold the lines of such a node to the block's indentation as `yaml` does, so one over several lines is left to
 * `yaml`. (A block mapping whose first key is quoted starts with a quote too, and is not one.)
 */
function isFlowOrQuoted(char: string | undefined, kind: string): boolean {
  if (char === '"' || char === "'") return kind === 'scalar';
  return (char === '{' || char === '[') && kind !== 'scalar';
}

/**
 * The value of a YAML document read with js-yaml (about ten times faster than the `yaml` package, which builds
 * a syntax tree with source positions), or `undefined` when the fast reading cannot promise the value the `yaml`
 * package's core schema gives: on any error (the caller then parses again with `yaml` for its message and position),
 * and for what the two read differently: anchors and aliases (`yaml` bounds their expansion), keys that are
 * collections or null (`yaml` writes `[ a ]` and `""`, js-yaml `a` and `null`), explicit `?` keys, directives,
 * flow collections and quoted scalars over several lines (whose indentation `yaml` checks), and an empty document.
 */
export function fastYamlValue(text: string): unknown {
  if (directive.test(text) || explicitOrEmptyKey.test(text)) return undefined;
  let exact = true;
  // For each open node: its first character and the line of it.
  const starts: Array<{ char: string | undefined; line: number }> = [];
  let value: unknown;
  try {
    value = jsYaml.load(text, {
      schema: coreSchema,
      listener(event, state) {
        if (!exact) return;
        if (event === 'open') {
          starts.push(contentAfter(state.input, state.position, state.line));
          return;
        }
        const start = starts.pop()!;
        if ((state as typeof state & { anchor?: string | null }).anchor != null) exact = false;
        else if (start.line !== state.line && isFlowOrQuoted(start.char, state.kind)) exact = false;
        else if (
          (state.result === null || typeof state.result === 'object') &&
          colonFollows(state.input, state.position)
        )
          exact = false;
      },
    });
  } catch {
    return undefined;
  }
  return exact && value !== undefined ? value : undefined;
}
