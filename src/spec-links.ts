export const SPEC_BASE = 'https://modelcontextprotocol.io/specification/2026-07-28/';

/** The published page for a check's specRef (`server/tools#capabilities`). */
export function specUrl(specRef: string): string {
  return SPEC_BASE + specRef;
}
