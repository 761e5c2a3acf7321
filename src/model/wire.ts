/** The protocol revision this tool audits first. */
export const MODERN_VERSION = '2026-07-28';
/** The revision it falls back to for servers that still need an `initialize` handshake. */
export const LEGACY_VERSION = '2025-11-25';

/** A protocol revision a conversation with the target can use. */
export type Wire = typeof MODERN_VERSION | typeof LEGACY_VERSION;
export const WIRES: readonly Wire[] = [MODERN_VERSION, LEGACY_VERSION];
/** The wires of a rule that arrived with 2026-07-28. */
export const MODERN: readonly Wire[] = [MODERN_VERSION];
/** The wires of a rule of the `initialize` wire that 2026-07-28 dropped. */
export const LEGACY: readonly Wire[] = [LEGACY_VERSION];
