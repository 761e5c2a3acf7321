let counter = 0;

/** Monotonic sequence number shared by every transport, so evidence from one run sorts in wire order. */
export function nextSeq(): number {
  counter += 1;
  return counter;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
