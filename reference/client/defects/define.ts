import type { ClientSeams } from './seams.js';

/** Each defect breaks exactly one client rule on purpose, so a client check can be shown to catch it alone. */
export interface Defect {
  /** The transport the defect exists on; it has no effect on the other. */
  only?: 'http' | 'stdio';
  /**
   * The client check of mcp-tools-conformance that catches it (test/client-defects.test.ts), per transport when the
   * rule has one per transport.
   */
  check: string | { http: string; stdio: string };
  description: string;
  /** It exists in the initialize mode (`--protocol-version`), on this revision: the client opens with initialize. */
  initializeRevision?: '2025-11-25';
  /** What the defect does: its hook at each seam of the client it spoils (`./seams.ts`). */
  at?: ClientSeams;
}
