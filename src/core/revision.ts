/** The protocol revision this tool audits first: stateless, discovered with `server/discover`. */
export const LATEST_REVISION = '2026-07-28';
/** The `initialize` revision offered when none is chosen: the newest one. */
export const LATEST_INITIALIZE_REVISION = '2025-11-25';

/**
 * The revision that defines the HTTP with SSE transport (2025-03-26 on keep it only for backwards compatibility): the
 * one offered over it when none is chosen.
 */
export const HTTP_SSE_REVISION = '2024-11-05';

/** The revisions of the `initialize` handshake, newest first. */
export const INITIALIZE_REVISIONS = [
  LATEST_INITIALIZE_REVISION,
  '2025-06-18',
  '2025-03-26',
  HTTP_SSE_REVISION,
] as const;

/** A revision of the `initialize` handshake. */
export type InitializeRevision = (typeof INITIALIZE_REVISIONS)[number];
/** A protocol revision a conversation with the target can use: the one it agreed, whose pages judge it. */
export type Revision = typeof LATEST_REVISION | InitializeRevision;
/** Every revision this tool knows, newest first. */
export const REVISIONS: readonly Revision[] = [LATEST_REVISION, ...INITIALIZE_REVISIONS];

export function isRevision(version: unknown): version is Revision {
  return typeof version === 'string' && (REVISIONS as readonly string[]).includes(version);
}

/** A revision spoken after an `initialize` handshake (sessions, capabilities negotiated once). */
export function isInitializeRevision(value: unknown): value is InitializeRevision {
  return typeof value === 'string' && (INITIALIZE_REVISIONS as readonly string[]).includes(value);
}

/** Revisions in time order: negative when `a` came before `b`. */
export function compareRevisions(a: Revision, b: Revision): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
