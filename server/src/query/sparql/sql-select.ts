/** The clauses of one SQL SELECT; an absent or empty clause is left out. */
export interface SelectClauses {
  distinct?: boolean;
  /** The SELECT list; none selects `1 AS _u`, as SQL has no SELECT of nothing. */
  items: string[];
  /** The FROM clause: tables or sub-queries with their aliases, and joins. */
  from?: string;
  /** Conditions, joined with AND. */
  where?: string[];
  groupBy?: string[];
  /** Conditions, joined with AND. */
  having?: string[];
  orderBy?: string[];
  limit?: number;
  offset?: number;
}

/** A SELECT list: the items, or the one constant column of a row that carries no variable. */
export const selectList = (items: string[]): string => (items.length ? items.join(', ') : '1 AS _u');

/** A sub-query in a FROM clause under `alias`. */
export const subquery = (sql: string, alias: string): string => `(${sql}) ${alias}`;

/** LIMIT and OFFSET, with the space that separates them from the clauses before. */
export function sliceSql({ limit, offset }: Pick<SelectClauses, 'limit' | 'offset'>): string {
  const limitSql = limit !== undefined ? ` LIMIT ${Number(limit)}` : '';
  return offset !== undefined ? `${limitSql} OFFSET ${Number(offset)}` : limitSql;
}

/** The text of one SELECT. */
export function select(clauses: SelectClauses): string {
  const { distinct, items, from, where = [], groupBy = [], having = [], orderBy = [] } = clauses;
  return [
    `SELECT ${distinct ? 'DISTINCT ' : ''}${selectList(items)}`,
    from !== undefined ? ` FROM ${from}` : '',
    where.length ? ` WHERE ${where.join(' AND ')}` : '',
    groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : '',
    having.length ? ` HAVING ${having.join(' AND ')}` : '',
    orderBy.length ? ` ORDER BY ${orderBy.join(', ')}` : '',
    sliceSql(clauses),
  ].join('');
}
