/**
 * Stand-in for the retrieval URI of a tool schema, which has none. Relative references that resolve
 * under this scheme point at some other document next to it.
 */
export const DOCUMENT_BASE = 'x-mcp-tool-schema:///root.json';
export const DOCUMENT_PROTOCOL = 'x-mcp-tool-schema:';

/** `uri` resolved against `base`, without any fragment; undefined when it is not a URI reference. */
export function resolveUri(uri: string, base: string): string | undefined {
  if (uri === '') return base;
  try {
    const url = new URL(uri, base);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/** Splits at the first `#`: what names the document, and the raw (still percent-encoded) fragment. */
export function splitFragment(ref: string): { uri: string; fragment: string } {
  const hash = ref.indexOf('#');
  return hash < 0 ? { uri: ref, fragment: '' } : { uri: ref.slice(0, hash), fragment: ref.slice(hash + 1) };
}
