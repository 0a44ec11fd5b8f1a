import fs from 'node:fs';
import path from 'node:path';

/** The suites the runner reads: Spider's subset, defog's sql-eval, and a question set of the repository's own. */
export type SuiteSet = 'spider' | 'defog' | 'own';

/** One question of a suite, with how to obtain its gold result. */
export interface SuiteQuestion {
  set: SuiteSet;
  db: string;
  question: string;
  category: string;
  /** Gold SQL variants to run (defog); any match counts. */
  goldQueries: string[];
  /** Gold rows recorded with the suite (Spider, from SQLite). */
  goldRows?: unknown[][];
}

/** A suite database: its dump and the relationships the suite declares beyond the dump's DDL. */
export interface SuiteDatabase {
  set: SuiteSet;
  name: string;
  dump: string;
  /** A YAML list of `natural_language.synonyms` entries declared for the database, as a workspace declares them. */
  synonyms?: string;
}

/** RFC 4180 CSV (quoted fields with doubled quotes and newlines) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows.filter((r) => r.some((f) => f !== ''));
}

/**
 * An own question set: a folder with one SQL dump (`<db>.sql`, its name the database's), `questions.json`
 * (`[{category, question, gold_sql}]`) and optionally `synonyms.yaml`; undefined when `dir` is not one.
 */
function readOwnSet(dir: string): { databases: SuiteDatabase[]; questions: SuiteQuestion[] } | undefined {
  const questionsFile = path.join(dir, 'questions.json');
  const dump = fs.existsSync(questionsFile) ? fs.readdirSync(dir).find((f) => f.endsWith('.sql')) : undefined;
  if (!dump) return undefined;
  const name = dump.replace(/\.sql$/, '');
  const synonyms = path.join(dir, 'synonyms.yaml');
  const items = JSON.parse(fs.readFileSync(questionsFile, 'utf8')) as {
    category: string;
    question: string;
    gold_sql: string;
  }[];
  return {
    databases: [
      { set: 'own', name, dump: path.join(dir, dump), synonyms: fs.existsSync(synonyms) ? synonyms : undefined },
    ],
    questions: items.map((item) => ({
      set: 'own',
      db: name,
      question: item.question,
      category: item.category,
      goldQueries: [item.gold_sql],
    })),
  };
}

/**
 * The Spider subset and the defog set under `dir` (the nl2sql folder; a missing set is skipped), or the own
 * question set that `dir` is.
 */
export function readSuite(dir: string): { databases: SuiteDatabase[]; questions: SuiteQuestion[] } {
  const own = readOwnSet(dir);
  if (own) return own;
  const databases: SuiteDatabase[] = [];
  const questions: SuiteQuestion[] = [];
  const spider = path.join(dir, 'spider_dev_subset');
  if (fs.existsSync(spider)) {
    for (const name of fs.readdirSync(path.join(spider, 'database')).sort())
      databases.push({ set: 'spider', name, dump: path.join(spider, 'database', name, `${name}.dump.sql`) });
    const items = JSON.parse(fs.readFileSync(path.join(spider, 'questions.json'), 'utf8')) as {
      db_id: string;
      question: string;
      gold_sql: string;
      gold_result_sqlite: unknown[][];
    }[];
    for (const item of items)
      questions.push({
        set: 'spider',
        db: item.db_id,
        question: item.question,
        category: item.db_id,
        goldQueries: [item.gold_sql],
        goldRows: item.gold_result_sqlite,
      });
  }
  const defog = path.join(dir, 'defog_sql_eval');
  if (fs.existsSync(defog)) {
    for (const name of fs.readdirSync(path.join(defog, 'databases')).sort())
      databases.push({ set: 'defog', name, dump: path.join(defog, 'databases', name, `${name}.sql`) });
    const [header, ...rows] = parseCsv(
      fs.readFileSync(path.join(defog, 'questions', 'questions_gen_postgres.csv'), 'utf8'),
    );
    const at = (name: string) => header.indexOf(name);
    for (const r of rows)
      questions.push({
        set: 'defog',
        db: r[at('db_name')],
        question: r[at('question')],
        category: r[at('query_category')],
        goldQueries: [r[at('query')]],
      });
  }
  return { databases, questions };
}
