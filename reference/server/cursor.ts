/** What every cursor this server issues says before its offset. */
export const CURSOR_TAG = 'tools-page:';

/** Opaque page cursor: base64url of a tagged offset. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_TAG}${offset}`, 'utf8').toString('base64url');
}

/** Returns the offset a cursor stands for, or undefined when it is not one this server issued. */
export function decodeCursor(cursor: string, total: number, pageSize: number): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^tools-page:([1-9][0-9]{0,5})$/.exec(text);
  if (!match) return undefined;
  const offset = Number(match[1]);
  if (encodeCursor(offset) !== cursor) return undefined;
  if (offset >= total || offset % pageSize !== 0) return undefined;
  return offset;
}
