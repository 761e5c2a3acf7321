import { resolve } from 'node:path';

/**
 * The team's shared folder sits beside the repository (../shared); absent outside the team, where tests that need it
 * skip. A checkout elsewhere (a git worktree) names it in MCP_CONFORMANCE_SHARED_DIR.
 */
export const SHARED_DIR = process.env.MCP_CONFORMANCE_SHARED_DIR ?? resolve(import.meta.dirname, '../../../shared');
export const sharedPath = (...parts: string[]) => resolve(SHARED_DIR, ...parts);
