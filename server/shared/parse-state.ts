// A status-like column's text narrowed to its const array's type (the CHECK constraints of
// server/state-columns.ts keep other values out of the database; one that still turns up throws,
// it is not passed on as a value of the type).

/** Narrows a column's text to its array's type; a value outside it (the CHECK forbids one) throws. */
export function parseState<const T extends readonly string[]>(values: T, value: string): T[number] {
  if ((values as readonly string[]).includes(value)) return value as T[number];
  throw new Error(`Unknown state ${JSON.stringify(value)} (expected one of ${values.join(", ")})`);
}

/** parseState for a nullable column: null stays null. */
export function parseNullableState<const T extends readonly string[]>(values: T, value: string | null): T[number] | null {
  return value === null ? null : parseState(values, value);
}
