import { assertUniqueIds } from '../src/runner/registry.js';
import type { CheckDefinition } from '../src/runner/types.js';
import { CACHING_CHECKS } from './caching.js';
import { CAPABILITY_CHECKS } from './capabilities.js';
import { DISCOVER_CHECKS } from './discover.js';
import { RESULT_CHECKS } from './results.js';
import { TOOLS_LIST_CHECKS } from './tools-list.js';
import { WIRE_CHECKS } from './wire.js';

/** Every check, in report order: one list per area, areas in the order a reader meets them. */
export const ALL_CHECKS: readonly CheckDefinition[] = [
  ...DISCOVER_CHECKS,
  ...CAPABILITY_CHECKS,
  ...TOOLS_LIST_CHECKS,
  ...CACHING_CHECKS,
  ...RESULT_CHECKS,
  ...WIRE_CHECKS,
];

assertUniqueIds(ALL_CHECKS);
