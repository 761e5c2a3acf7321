import type { Defects } from './defects/active.js';
import type { HeaderAnnotation } from './header-annotations.js';
import { valueAtPath } from '../../src/core/value-at-path.js';
import { base64Sentinel, headerText, isPlainSafe, looksLikeSentinel } from './header-value.js';
import { warn } from './log.js';

/** The `Mcp-Param-*` headers for one tools/call: one per annotated argument that is present and not null. */
export function paramHeaders(
  annotations: readonly HeaderAnnotation[],
  args: Record<string, unknown>,
  defects: Defects,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (defects.has('x-mcp-header-ignored')) return headers;
  for (const annotation of annotations) {
    const name = `Mcp-Param-${annotation.header}`;
    const value = valueAtPath(args, annotation.path);
    if (value === undefined) continue;
    if (value === null) {
      if (defects.has('null-param-header')) headers[name] = 'null';
      continue;
    }
    const text = textOf(value, defects);
    if (text === undefined) {
      warn(
        `no ${name} header: the argument ${JSON.stringify(value)?.slice(0, 100)} is not a string, integer or boolean`,
      );
      continue;
    }
    headers[name] = encodeParam(text, defects);
  }
  return headers;
}

function textOf(value: unknown, defects: Defects): string | undefined {
  if (typeof value === 'boolean' && defects.has('boolean-capitalised')) return value ? 'True' : 'False';
  const text = headerText(value);
  if (text === undefined && typeof value === 'number' && defects.has('keeps-invalid-x-mcp-header-tools'))
    return String(value);
  return text;
}

function encodeParam(text: string, defects: Defects): string {
  if (isPlainSafe(text)) return text;
  if (defects.has('sentinel-not-encoded') && looksLikeSentinel(text) && /^[\x20-\x7e]*$/.test(text)) return text;
  if (defects.has('percent-encoded-params') && !looksLikeSentinel(text)) return encodeURIComponent(text);
  return base64Sentinel(text);
}
