// Two forms of one stored value, so a record's builder can be written once. A Prisma write
// needs the values themselves; the ingest path's bulk INSERT needs SQL expressions over the
// JSON records it reads (one `INSERT … SELECT` for a whole batch, derived inside PostgreSQL
// rather than sent as more JSON). A builder written against TValueForm<V> (the audit row, an
// event's provenance) gives both, and so both writers store the same shape.

/** JSON as the plain form builds it. */
export type TJsonValue = string | number | boolean | null | TJsonValue[] | { [key: string]: TJsonValue };

export type TValueForm<V> = {
  /** A constant text: an action, a type. */
  text: (value: string) => V;
  /** NULL (and, inside an object built with `omitNull`, a field left out). */
  null: V;
  /** A JSON object of these fields; `omitNull` leaves out the fields whose value is null. */
  object: (fields: Record<string, V>, options?: { omitNull?: boolean }) => V;
};

/** The values themselves (a Prisma write). */
export const PLAIN_VALUES: TValueForm<TJsonValue> = {
  text: (value) => value,
  null: null,
  object: (fields, options) => {
    if (!options?.omitNull) return fields;
    const kept: Record<string, TJsonValue> = {};
    for (const key in fields) if (fields[key] !== null && fields[key] !== undefined) kept[key] = fields[key]!;
    return kept;
  },
};

/** SQL expressions (a bulk `INSERT … SELECT`). Texts are the code's constants, quoted as literals. */
export const SQL_VALUES: TValueForm<string> = {
  text: (value) => `'${value.replaceAll("'", "''")}'`,
  null: "NULL",
  object: (fields, options) => {
    const built = `jsonb_build_object(${Object.entries(fields)
      .map(([key, value]) => `'${key.replaceAll("'", "''")}', ${value}`)
      .join(", ")})`;
    // Flat objects only: jsonb_strip_nulls would also strip the nulls of nested objects.
    return options?.omitNull ? `jsonb_strip_nulls(${built})` : built;
  },
};
