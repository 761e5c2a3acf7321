/** The number a string of at most 15 digits spells (so that it stays exact); undefined for anything else. */
export function numberSpelledBy(value: unknown): number | undefined {
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
