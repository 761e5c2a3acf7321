import type { Exchange } from '../../src/model/exchange.js';

/** The media type of a recorded HTTP response (Content-Type without parameters), lower-cased; '' when none. */
export const responseMediaType = (e: Exchange): string =>
  (e.responseHeaders?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
