import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  checkHeaderAnnotations,
  findHeaderAnnotations,
  isObject,
  type KeywordText,
  type SpecSentence,
  type XmcpFinding,
  type XmcpRule,
} from '../kit/index.js';
import { perTool, type ListedTool } from '../kit/listed-tools.js';
import { fail } from '../kit/outcome.js';

/** The analysis of one tool's inputSchema, shared by all x-mcp-header checks. */
const analyses = new WeakMap<Record<string, unknown>, { count: number; findings: XmcpFinding[] }>();
function analysisOf(t: ListedTool): { count: number; findings: XmcpFinding[] } {
  let analysis = analyses.get(t.tool);
  if (!analysis) {
    const schema = t.tool.inputSchema;
    const { annotations } = isObject(schema) ? findHeaderAnnotations(schema) : { annotations: [] };
    analysis = {
      count: annotations.length,
      findings: isObject(schema) ? checkHeaderAnnotations(annotations, schema) : [],
    };
    analyses.set(t.tool, analysis);
  }
  return analysis;
}

const annotated = (t: ListedTool) => analysisOf(t).count > 0;

const CONSTRAINTS = 'Constraints on `x-mcp-header` values: … ';

/** A sentence of server/tools § x-mcp-header (2026-07-28 only: no initialize revision has x-mcp-header). */
const onTools = (text: string, keyword: KeywordText): SpecSentence => ({
  ref: 'server/tools#x-mcp-header',
  text,
  keyword,
});

/** What an advisory finding of a check rests on (a sentence weaker than its MUST), and what it asks for. */
interface Advisory {
  sentence: SpecSentence;
  expected: string;
}

const listed = (findings: readonly XmcpFinding[]) =>
  findings.map((f) => `${f.pointer || '(root)'}: ${f.message}`).join('; ');

function xmcpCheck(
  rule: XmcpRule,
  sentence: SpecSentence,
  title: string,
  expected: string,
  options: { covers?: string[]; advisory?: Advisory } = {},
): CheckDefinition {
  const { covers, advisory } = options;
  return defineCheck({
    id: rule,
    ...(covers ? { covers } : {}),
    title,
    area: 'x-mcp-header',
    sentences: { '2026-07-28': advisory ? [sentence, advisory.sentence] : [sentence] },
    run: (ctx: CheckContext) =>
      perTool(
        ctx,
        (t) => {
          const mine = analysisOf(t).findings.filter((f) => f.rule === rule);
          const breaches = mine.filter((f) => !f.advisory);
          const advisories = mine.filter((f) => f.advisory);
          if (breaches.length > 0)
            return fail(
              `${listed(breaches)}${advisories.length > 0 ? `; also (advisory) ${listed(advisories)}` : ''}`,
              expected,
            );
          if (advisories.length === 0) return undefined;
          if (!advisory) throw new Error(`${rule} has an advisory finding but no sentence for it`);
          return { ...fail(listed(advisories), advisory.expected), sentence: advisory.sentence };
        },
        { checked: 'tools with x-mcp-header annotations', applies: annotated, none: 'no tool uses x-mcp-header' },
      ),
  });
}

export const X_MCP_HEADER_CHECKS = [
  xmcpCheck(
    'xmcp.value.non-empty',
    onTools(`${CONSTRAINTS}MUST NOT be empty`, 'MUST NOT'),
    'x-mcp-header values are not empty',
    'a non-empty header name part',
  ),
  xmcpCheck(
    'xmcp.value.token',
    onTools(`${CONSTRAINTS}MUST match HTTP field-name token syntax (\`1*tchar\`, RFC 9110 Section 5.1)`, 'MUST'),
    'x-mcp-header values are HTTP field-name tokens (1*tchar)',
    "only tchar: A-Z a-z 0-9 ! # $ % & ' * + - . ^ _ ` | ~",
  ),
  xmcpCheck(
    'xmcp.value.no-ctl',
    onTools(
      `${CONSTRAINTS}MUST NOT contain control characters, including carriage return (CR, \`\\r\`) or line feed ` +
        `(LF, \`\\n\`)`,
      'MUST NOT',
    ),
    'x-mcp-header values contain no control characters (CR, LF, …)',
    'no character below 0x20, nor 0x7F',
  ),
  xmcpCheck(
    'xmcp.value.unique-ci',
    onTools(
      `${CONSTRAINTS}MUST be case-insensitively unique among all \`x-mcp-header\` values in the \`inputSchema\``,
      'MUST',
    ),
    'x-mcp-header values are unique within the inputSchema, ignoring case',
    'each Mcp-Param-{Name} names one parameter',
  ),
  xmcpCheck(
    'xmcp.target.primitive',
    onTools(
      `${CONSTRAINTS}MUST only be applied to parameters with primitive types (integer, string, boolean). ` +
        `Parameters with type \`number\` are not permitted.`,
      'MUST',
    ),
    'x-mcp-header annotates only integer, string or boolean parameters (not number)',
    'the annotated parameter accepts one of "integer", "string" or "boolean" (and perhaps null), read through ' +
      'same-document $ref, allOf, anyOf and oneOf (see CONFORMANCE.md)',
    {
      advisory: {
        sentence: onTools(
          'The `x-mcp-header` property is placed directly within the JSON Schema of the property to be mirrored.',
          'descriptive',
        ),
        expected:
          'a "type" of "integer", "string" or "boolean" (or that type and "null") in the annotated schema ' +
          'itself, which every client can read',
      },
    },
  ),
  xmcpCheck(
    'xmcp.target.int-safe-range',
    onTools(
      `${CONSTRAINTS}Integer values MUST be within the safe range for integers represented using IEEE754 ` +
        `double-precision floating point numbers`,
      'MUST',
    ),
    'Integer parameters mirrored into headers stay within ±(2^53−1)',
    'integers within -(2^53-1) … 2^53-1: no bound that admits only unsafe values, no unsafe enum or const value',
    {
      advisory: {
        sentence: {
          ref: 'basic/transports/streamable-http#server-validation',
          text:
            'When validating integer parameter values, servers SHOULD compare the header value and the body ' +
            'value numerically rather than as strings (e.g., `42.0` and `42` are considered equal).',
          keyword: 'SHOULD',
        },
        expected:
          'minimum ≥ -(2^53-1) and maximum ≤ 2^53-1, so that every admitted value compares exactly as a number ' +
          '(zod 4 writes these bounds for .int())',
      },
    },
  ),
  xmcpCheck(
    'xmcp.target.static-reach',
    onTools(
      `${CONSTRAINTS}MUST only be applied to properties that are _statically reachable_ from the schema root`,
      'MUST',
    ),
    'x-mcp-header sits only on properties reachable from the root through "properties" alone',
    'the annotation at /properties/<a>(/properties/<b>)* — never under items, anyOf/oneOf/allOf/not, ' +
      'if/then/else, $ref, $defs or additionalProperties',
    { covers: ['xmcp.target.chain'] },
  ),
  xmcpCheck(
    'xmcp.server.no-sensitive',
    onTools(
      'Server developers SHOULD NOT mark sensitive parameters (passwords, API keys, tokens, PII) with ' +
        '`x-mcp-header`, as header values are visible to network intermediaries.',
      'SHOULD NOT',
    ),
    'x-mcp-header does not mirror sensitive parameters (passwords, keys, tokens, PII)',
    'sensitive values stay in the body: header values are visible to network intermediaries',
  ),
] as const;
