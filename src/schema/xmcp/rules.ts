import type { HeaderAnnotation } from './find.js';

/** The static constraints on `x-mcp-header` (server/tools#x-mcp-header; requirements §3.1), one requirement ID each. */
export type XmcpRule =
  | 'xmcp.value.non-empty'
  | 'xmcp.value.no-ctl'
  | 'xmcp.value.token'
  | 'xmcp.value.unique-ci'
  | 'xmcp.target.primitive'
  | 'xmcp.target.int-safe-range'
  | 'xmcp.target.static-reach'
  | 'xmcp.server.no-sensitive';

export interface XmcpFinding {
  rule: XmcpRule;
  pointer: string;
  value: unknown;
  message: string;
}

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);
const SAFE = Number.MAX_SAFE_INTEGER;
const SENSITIVE_WORDS = new Set([
  'password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'credential', 'credentials', 'authorization', 'auth',
  'cookie', 'session', 'ssn', 'email', 'phone', 'privatekey', 'pin',
]);

/**
 * The value rules are checked in precedence order so one bad value is reported once:
 * not a string or empty → non-empty; a control character → no-ctl; any other non-tchar → token.
 */
function valueFinding(a: HeaderAnnotation): XmcpFinding | undefined {
  const v = a.value;
  const at = { pointer: a.pointer, value: v };
  if (typeof v !== 'string') return { rule: 'xmcp.value.token', ...at, message: `x-mcp-header is ${JSON.stringify(v)}, not a string` };
  if (v === '') return { rule: 'xmcp.value.non-empty', ...at, message: 'x-mcp-header is the empty string' };
  if (CONTROL.test(v)) return { rule: 'xmcp.value.no-ctl', ...at, message: `x-mcp-header ${JSON.stringify(v)} contains a control character` };
  if (!TCHAR.test(v)) return { rule: 'xmcp.value.token', ...at, message: `x-mcp-header ${JSON.stringify(v)} is not an HTTP token (1*tchar)` };
  return undefined;
}

/** The primitive type the annotated property accepts, or why it has none (position documented in CONFORMANCE.md). */
export function annotatedType(schema: Record<string, unknown>): { type?: 'string' | 'integer' | 'boolean'; problem?: string } {
  const declared = schema.type;
  if (typeof declared === 'string') {
    return PRIMITIVES.has(declared) ? { type: declared as 'string' } : { problem: `type "${declared}" is not integer, string or boolean` };
  }
  if (Array.isArray(declared)) {
    const nonNull = declared.filter((t) => t !== 'null');
    if (nonNull.length === 1 && typeof nonNull[0] === 'string' && PRIMITIVES.has(nonNull[0])) return { type: nonNull[0] as 'string' };
    return { problem: `type ${JSON.stringify(declared)} is not a single primitive (integer, string or boolean, optionally with "null")` };
  }
  if (declared !== undefined) return { problem: `type ${JSON.stringify(declared)} is not a type name` };
  const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (!values || values.length === 0) return { problem: 'the property declares no type (nor an enum or const that implies one)' };
  const kinds = new Set(values.filter((v) => v !== null).map((v) => (Number.isInteger(v) ? 'integer' : typeof v)));
  if (kinds.size === 1) {
    const only = [...kinds][0]!;
    if (PRIMITIVES.has(only)) return { type: only as 'string' };
  }
  return { problem: `the enum/const values are not all of one primitive type (${[...kinds].join(', ')})` };
}

function rangeFinding(a: HeaderAnnotation): XmcpFinding | undefined {
  const s = a.schema;
  const bounds: [string, unknown][] = [
    ['minimum', s.minimum],
    ['maximum', s.maximum],
    ['exclusiveMinimum', s.exclusiveMinimum],
    ['exclusiveMaximum', s.exclusiveMaximum],
    ['const', s.const],
    ...(Array.isArray(s.enum) ? s.enum.map((v, i): [string, unknown] => [`enum[${i}]`, v]) : []),
  ];
  const out = bounds.filter(([, v]) => typeof v === 'number' && Math.abs(v) > SAFE);
  if (out.length === 0) return undefined;
  return {
    rule: 'xmcp.target.int-safe-range',
    pointer: a.pointer,
    value: a.value,
    message: `integer ${out.map(([k, v]) => `${k} ${String(v)}`).join(', ')} lies outside ±(2^53−1)`,
  };
}

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function sensitiveFinding(a: HeaderAnnotation): XmcpFinding | undefined {
  const name = a.propertyPath?.at(-1) ?? '';
  const texts = [name, typeof a.value === 'string' ? a.value : '', typeof a.schema.title === 'string' ? a.schema.title : ''];
  for (const text of texts) {
    const w = words(text);
    const joined = w.map((x, i) => x + (w[i + 1] ?? ''));
    const hit = [...w, ...joined].find((x) => SENSITIVE_WORDS.has(x));
    if (hit) {
      return {
        rule: 'xmcp.server.no-sensitive',
        pointer: a.pointer,
        value: a.value,
        message: `"${text}" looks sensitive (${hit}): header values are visible to every intermediary`,
      };
    }
  }
  return undefined;
}

export function checkHeaderAnnotations(annotations: readonly HeaderAnnotation[]): XmcpFinding[] {
  const findings: XmcpFinding[] = [];
  const seen = new Map<string, string>();
  for (const a of annotations) {
    const value = valueFinding(a);
    if (value) findings.push(value);
    if (typeof a.value === 'string' && a.value !== '') {
      const key = a.value.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) {
        findings.push({
          rule: 'xmcp.value.unique-ci',
          pointer: a.pointer,
          value: a.value,
          message: `x-mcp-header ${JSON.stringify(a.value)} repeats the one at ${first || '(root)'} (compared case-insensitively)`,
        });
      } else seen.set(key, a.pointer);
    }
    if (!a.propertyPath) {
      findings.push({
        rule: 'xmcp.target.static-reach',
        pointer: a.pointer,
        value: a.value,
        message: `x-mcp-header at ${a.pointer || '(root)'} is not on a chain of "properties" from the root (it passes through ${firstForbidden(a.pointer)})`,
      });
    }
    const type = annotatedType(a.schema);
    if (type.problem) findings.push({ rule: 'xmcp.target.primitive', pointer: a.pointer, value: a.value, message: type.problem });
    else if (type.type === 'integer') {
      const range = rangeFinding(a);
      if (range) findings.push(range);
    }
    const sensitive = sensitiveFinding(a);
    if (sensitive) findings.push(sensitive);
  }
  return findings;
}

function firstForbidden(pointer: string): string {
  const segments = pointer.split('/').slice(1);
  for (let i = 0; i < segments.length; i += 2) if (segments[i] !== 'properties') return `"${segments[i]}"`;
  return 'the schema root';
}
