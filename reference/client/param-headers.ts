import type { Defects } from './defects/active.js';
import type { ParamHeaderRules } from './defects/seams/calls.js';
import type { HeaderAnnotation } from './header-annotations.js';
import { valueAtPath } from '../../src/core/value-at-path.js';
import { base64Sentinel, headerText, isPlainSafe } from './header-value.js';
import { warn } from './log.js';

/** The `Mcp-Param-*` headers for one tools/call: one per annotated argument that is present and not null. */
export function paramHeaders(
  annotations: readonly HeaderAnnotation[],
  args: Record<string, unknown>,
  defects: Defects,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const rules: ParamHeaderRules = { mirrored: true, omitsNull: true };
  defects.at.paramHeaderRules(rules);
  if (!rules.mirrored) return headers;
  for (const annotation of annotations) {
    const name = `Mcp-Param-${annotation.header}`;
    const value = valueAtPath(args, annotation.path);
    if (value === undefined) continue;
    if (value === null) {
      if (!rules.omitsNull) headers[name] = 'null';
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
  const text = headerText(value);
  return defects.at.paramHeaderText(value, text) ?? text;
}

function encodeParam(text: string, defects: Defects): string {
  if (isPlainSafe(text)) return text;
  return defects.at.paramHeaderValue(text) ?? base64Sentinel(text);
}
