import { documentOf } from '../arguments/schema-document.js';
import type { HeaderAnnotation } from './find.js';
import { annotatedType, type IntegerRange } from './target-type.js';

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
  /**
   * The schema does not show a breach of the rule, only a risk (a type that could not be decided, integers it merely
   * admits).
   */
  advisory?: true;
}

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// eslint-disable-next-line no-control-regex -- a header value may not hold control characters
const CONTROL = /[\u0000-\u001f\u007f]/;
const SAFE = Number.MAX_SAFE_INTEGER;
const SENSITIVE_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
  'authorization',
  'auth',
  'cookie',
  'session',
  'ssn',
  'email',
  'phone',
  'privatekey',
  'pin',
]);

/**
 * The value rules are checked in precedence order so one bad value is reported once:
 * not a string or empty → non-empty; a control character → no-ctl; any other non-tchar → token.
 */
function valueFinding(a: HeaderAnnotation): XmcpFinding | undefined {
  const v = a.value;
  const at = { pointer: a.pointer, value: v };
  if (typeof v !== 'string')
    return { rule: 'xmcp.value.token', ...at, message: `x-mcp-header is ${JSON.stringify(v)}, not a string` };
  if (v === '') return { rule: 'xmcp.value.non-empty', ...at, message: 'x-mcp-header is the empty string' };
  if (CONTROL.test(v))
    return {
      rule: 'xmcp.value.no-ctl',
      ...at,
      message: `x-mcp-header ${JSON.stringify(v)} contains a control character`,
    };
  if (!TCHAR.test(v))
    return {
      rule: 'xmcp.value.token',
      ...at,
      message: `x-mcp-header ${JSON.stringify(v)} is not an HTTP token (1*tchar)`,
    };
  return undefined;
}

const SAFE_RANGE = '±(2^53−1)';
const beyond = (n: number) => Math.abs(n) > SAFE;

/**
 * The safe-range MUST constrains integer values. A schema that admits only unsafe values, or lists one in
 * `enum`/`const`, breaks it; a schema that merely admits them (no bound, or a bound beyond 2^53−1) only shows that
 * they may occur, which is advisory (position in CONFORMANCE.md).
 */
function rangeFinding(a: HeaderAnnotation, integers: IntegerRange): XmcpFinding | undefined {
  const at = { rule: 'xmcp.target.int-safe-range' as const, pointer: a.pointer, value: a.value };
  const { min, max } = integers;
  if (integers.values) {
    const admitted = integers.values.filter((v) => (min === undefined || v >= min) && (max === undefined || v <= max));
    const unsafe = admitted.filter(beyond);
    return unsafe.length === 0
      ? undefined
      : {
          ...at,
          message:
            `the listed value${unsafe.length > 1 ? 's' : ''} ${unsafe.map(String).join(', ')} lie` +
            `${unsafe.length > 1 ? '' : 's'} outside ${SAFE_RANGE}`,
        };
  }
  if (min !== undefined && min > SAFE)
    return { ...at, message: `${integers.minText!}: every integer the parameter admits lies above 2^53−1` };
  if (max !== undefined && max < -SAFE)
    return { ...at, message: `${integers.maxText!}: every integer the parameter admits lies below −(2^53−1)` };
  const open = [
    ...(min === undefined ? ['no minimum'] : min < -SAFE ? [integers.minText!] : []),
    ...(max === undefined ? ['no maximum'] : max > SAFE ? [integers.maxText!] : []),
  ];
  if (open.length === 0) return undefined;
  return {
    ...at,
    advisory: true,
    message:
      `${open.join(', ')}: the schema admits integers outside ${SAFE_RANGE}, which are not exact as IEEE754 ` +
      `doubles (2^53 and 2^53+1 are the same number there); the MUST is about the values, and a schema only ` +
      `shows that such values may occur`,
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
  const texts = [
    name,
    typeof a.value === 'string' ? a.value : '',
    typeof a.schema.title === 'string' ? a.schema.title : '',
  ];
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

/**
 * What a client that reads only the annotated schema's own `type` keyword does with a tool whose type it cannot see.
 */
const LOCAL_TYPE_READERS =
  "clients that read only the annotated schema's own type keyword reject the tool and leave it out of " +
  'tools/list (the official TypeScript 2.4.0 and Python 2.3.0 SDK clients do; the Python server refuses such a ' +
  'tool at registration)';

/** The findings for every annotation of one inputSchema (`root`: `$ref`s are resolved in it, never fetched). */
export function checkHeaderAnnotations(
  annotations: readonly HeaderAnnotation[],
  root: Record<string, unknown>,
): XmcpFinding[] {
  const findings: XmcpFinding[] = [];
  const doc = documentOf(root);
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
          message:
            `x-mcp-header ${JSON.stringify(a.value)} repeats the one at ${first || '(root)'} (compared ` +
            `case-insensitively)`,
        });
      } else seen.set(key, a.pointer);
    }
    if (!a.propertyPath) {
      findings.push({
        rule: 'xmcp.target.static-reach',
        pointer: a.pointer,
        value: a.value,
        message:
          `x-mcp-header at ${a.pointer || '(root)'} is not on a chain of "properties" from the root (it ` +
          `passes through ${firstForbidden(a.pointer)})`,
      });
    }
    const type = annotatedType(a.schema, root, doc);
    if (type.problem !== undefined) {
      const at = { rule: 'xmcp.target.primitive' as const, pointer: a.pointer, value: a.value };
      findings.push(
        type.undecided
          ? { ...at, advisory: true, message: `${type.problem}; ${LOCAL_TYPE_READERS}` }
          : { ...at, message: type.problem },
      );
    } else if (type.integers) {
      const range = rangeFinding(a, type.integers);
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
