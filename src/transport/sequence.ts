let counter = 0;

/** Monotonic sequence number shared by every transport, so evidence from one run sorts in wire order. */
export function nextSeq(): number {
  counter += 1;
  return counter;
}

/** Starts the numbering again, for a process that runs another audit after one (a fleet's reused process). */
export function restartSeq(): void {
  counter = 0;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
