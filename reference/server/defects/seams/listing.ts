import type { JsonObject } from './json.js';

/** The seams of what the server tells of itself and lists: server/discover and tools/list. */
export interface ListingSeams {
  /** The server/discover result, made whole (capabilities included): spoil it in place. */
  discoverResult?(result: JsonObject): void;
  /** The capabilities discover declares: spoil them in place, or return the object to declare instead. */
  serverCapabilities?(capabilities: JsonObject): JsonObject | void;
}
