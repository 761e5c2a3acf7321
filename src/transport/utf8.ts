/** Strict decoder: only asked whether bytes are valid UTF-8 (its text is not used, so a BOM changes nothing). */
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface DecodedText {
  /** The text, any invalid sequence replaced by U+FFFD (what the transports always used). */
  text: string;
  /** False when the bytes were not valid UTF-8 (JSON-RPC messages MUST be UTF-8 encoded). */
  valid: boolean;
}

/**
 * Decodes bytes leniently, and tells whether they were valid UTF-8. The strict decode runs only when the lenient
 * text holds a U+FFFD (what every invalid sequence becomes), so valid text costs one search of the decoded string.
 * Bytes must be complete: a sequence cut off at the end counts as invalid.
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!text.includes('\uFFFD')) return { text, valid: true };
  try {
    strict.decode(bytes);
    return { text, valid: true };
  } catch {
    return { text, valid: false };
  }
}
