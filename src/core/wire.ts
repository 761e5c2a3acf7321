/** The protocol revision this tool audits first: stateless, discovered with `server/discover`. */
export const MODERN_VERSION = '2026-07-28';
/** The `initialize` revision offered when none is chosen: the newest one. */
export const LEGACY_VERSION = '2025-11-25';

/**
 * The revision that defines the HTTP with SSE transport (2025-03-26 on keep it only for backwards compatibility): the one
 * offered over it when none is chosen.
 */
export const HTTP_SSE_VERSION = '2024-11-05';

/** The revisions of the `initialize` handshake, newest first. */
export const INITIALIZE_REVISIONS = [LEGACY_VERSION, '2025-06-18', '2025-03-26', HTTP_SSE_VERSION] as const;

/** A protocol revision a conversation with the target can use: the one it agreed, whose pages judge it. */
export type Wire = typeof MODERN_VERSION | (typeof INITIALIZE_REVISIONS)[number];
/** Every revision this tool knows, newest first. */
export const WIRES: readonly Wire[] = [MODERN_VERSION, ...INITIALIZE_REVISIONS];
/** The wires of a rule that arrived with 2026-07-28. */
export const MODERN: readonly Wire[] = [MODERN_VERSION];
/** The wires of the `initialize` handshake, which 2026-07-28 dropped. */
export const LEGACY: readonly Wire[] = INITIALIZE_REVISIONS;

export function isWire(version: unknown): version is Wire {
  return typeof version === 'string' && (WIRES as readonly string[]).includes(version);
}

/** A revision spoken after an `initialize` handshake (sessions, capabilities negotiated once). */
export function isInitializeWire(wire: Wire): boolean {
  return wire !== MODERN_VERSION;
}

/** Revisions in time order: negative when `a` came before `b`. */
export function compareWires(a: Wire, b: Wire): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
