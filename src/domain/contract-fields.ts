// A stored row as the contract shows it: the columns named as the contract names its fields
// (`createdAt` → `created_at`) and timestamps as ISO 8601 text. The resources' mappers (toProject,
// toInvoice, …) list the columns they show and add the fields that are more than a renaming.

/** A column's name as the contract writes it: camelCase → snake_case. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** A column's value as the contract carries it: a timestamp (or null) as ISO 8601 text (or null). */
type AsContract<V> = V extends Date ? string : V;

export type ContractFields<Row, Column extends keyof Row & string> = {
  -readonly [C in Column as SnakeCase<C>]: AsContract<Row[C]>;
};

const snakeNames = new Map<string, string>();

/** The `columns` of `row`, renamed snake_case, dates as ISO 8601 text, in the order given. */
export function contractFields<Row extends object, Column extends keyof Row & string>(
  row: Row,
  columns: readonly Column[],
): ContractFields<Row, Column> {
  const fields: Record<string, unknown> = {};
  for (const column of columns) {
    let name = snakeNames.get(column);
    if (name === undefined)
      snakeNames.set(column, (name = column.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)));
    const value = row[column];
    fields[name] = value instanceof Date ? value.toISOString() : value;
  }
  return fields as ContractFields<Row, Column>;
}

/** An agent run's or a deployment's `error`: its code and message, or null when it has none. */
export function errorOf(row: {
  errorCode: string | null;
  errorMessage: string | null;
}): { code: string; message: string } | null {
  return row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null;
}
