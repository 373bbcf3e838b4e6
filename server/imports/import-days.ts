// Days as the imports use them: "YYYY-MM-DD" strings, UTC.

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The Date a date column takes for a day. */
export function dayDate(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}
