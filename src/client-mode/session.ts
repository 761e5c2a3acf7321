import { join } from 'node:path';

/**
 * A stdio audit's folder, shared with the scripted server the client spawns: the audit writes the setup there, the
 * server appends every message it receives (one JSON line each) for the audit to read after the client exits.
 */
export const sessionFiles = (dir: string) => ({ setup: join(dir, 'setup.json'), seen: join(dir, 'seen.jsonl') });
