import type { languages } from 'monaco-editor';

/** SPARQL 1.1 keywords (matched case-insensitively). */
export const sparqlKeywords = [
  'BASE', 'PREFIX', 'SELECT', 'DISTINCT', 'REDUCED', 'AS', 'CONSTRUCT', 'DESCRIBE', 'ASK', 'FROM', 'NAMED', 'WHERE',
  'ORDER', 'BY', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'GROUP', 'HAVING', 'VALUES', 'OPTIONAL', 'GRAPH', 'SERVICE',
  'SILENT', 'BIND', 'UNDEF', 'MINUS', 'UNION', 'FILTER', 'EXISTS', 'NOT', 'IN', 'a', 'true', 'false',
];

/** SPARQL 1.1 built-in functions and aggregates. */
export const sparqlFunctions = [
  'COUNT', 'SUM', 'MIN', 'MAX', 'AVG', 'SAMPLE', 'GROUP_CONCAT', 'SEPARATOR', 'STR', 'LANG', 'LANGMATCHES', 'DATATYPE',
  'BOUND', 'IRI', 'URI', 'BNODE', 'RAND', 'ABS', 'CEIL', 'FLOOR', 'ROUND', 'CONCAT', 'STRLEN', 'UCASE', 'LCASE',
  'ENCODE_FOR_URI', 'CONTAINS', 'STRSTARTS', 'STRENDS', 'STRBEFORE', 'STRAFTER', 'YEAR', 'MONTH', 'DAY', 'HOURS',
  'MINUTES', 'SECONDS', 'TIMEZONE', 'TZ', 'NOW', 'UUID', 'STRUUID', 'MD5', 'SHA1', 'SHA256', 'SHA384', 'SHA512',
  'COALESCE', 'IF', 'STRLANG', 'STRDT', 'SAMETERM', 'ISIRI', 'ISURI', 'ISBLANK', 'ISLITERAL', 'ISNUMERIC', 'REGEX',
  'SUBSTR', 'REPLACE',
];

/** Monarch tokens: keywords, functions, variables, IRIs, prefixed names, blank nodes, literals, comments. */
export const sparqlMonarch: languages.IMonarchLanguage = {
  ignoreCase: true,
  defaultToken: '',
  keywords: sparqlKeywords,
  functions: sparqlFunctions,
  tokenizer: {
    root: [
      [/#.*$/, 'comment'],
      [/[?$][A-Za-z0-9_\u00C0-\uFFFF]+/, 'variable'],
      [/<[^<>"{}|^`\\\s]*>/, 'string.link'],
      [/_:[A-Za-z0-9_][\w.-]*/, 'type.identifier'],
      [/@[a-zA-Z]+(-[a-zA-Z0-9]+)*/, 'annotation'],
      [/\^\^/, 'operator'],
      // A prefixed name (ex:Customer, ex:, :local) before a plain word.
      [/[A-Za-z][\w.-]*:[\w.-]*|:[\w.-]*/, 'type'],
      [/[A-Za-z_]\w*/, { cases: { '@keywords': 'keyword', '@functions': 'predefined', '@default': 'identifier' } }],
      [/[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?/, 'number'],
      [/"""/, 'string', '@longDouble'],
      [/'''/, 'string', '@longSingle'],
      [/"([^"\\\n]|\\.)*"/, 'string'],
      [/'([^'\\\n]|\\.)*'/, 'string'],
      [/[{}()[\]]/, '@brackets'],
      [/[;,.]/, 'delimiter'],
      [/[=!<>&|*/+-]+/, 'operator'],
    ],
    longDouble: [
      [/"""/, 'string', '@pop'],
      [/[^"]+|"/, 'string'],
    ],
    longSingle: [
      [/'''/, 'string', '@pop'],
      [/[^']+|'/, 'string'],
    ],
  },
};

/** Comments, brackets and auto-closing pairs of SPARQL. */
export const sparqlConfiguration: languages.LanguageConfiguration = {
  comments: { lineComment: '#' },
  brackets: [['{', '}'], ['(', ')'], ['[', ']']],
  autoClosingPairs: [
    { open: '{', close: '}' },
    { open: '(', close: ')' },
    { open: '[', close: ']' },
    { open: '"', close: '"', notIn: ['string'] },
    { open: '<', close: '>', notIn: ['string', 'comment'] },
  ],
  // Variables and prefixed names are words, so completion replaces them whole.
  wordPattern: /[?$]?[\w-]+/,
};
