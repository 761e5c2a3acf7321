/**
 * The process exit codes, by cause: 0 nothing failed, 1 findings (a MUST broken, or with --fail-on should a SHOULD),
 * 2 our own usage error, 3 the target could not be audited (130 and 143 for SIGINT and SIGTERM are set by cli/main).
 */
export const EXIT = { ok: 0, failures: 1, usage: 2, unavailable: 3 } as const;
