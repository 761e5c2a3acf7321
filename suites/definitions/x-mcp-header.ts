import { isObject } from '../../src/jsonrpc.js';
import type { CheckContext } from '../../src/runner/context.js';
import type { CheckDefinition } from '../../src/runner/types.js';
import type { KeywordText, SpecSentence } from '../../src/model/check.js';
import { checkHeaderAnnotations, findHeaderAnnotations, type XmcpFinding, type XmcpRule } from '../../src/schema/xmcp/index.js';
import { perTool, type ListedTool } from '../kit/listed-tools.js';
import { fail } from '../kit/outcome.js';
import { MODERN } from '../../src/model/wire.js';

/** The analysis of one tool's inputSchema, shared by all x-mcp-header checks. */
const analyses = new WeakMap<Record<string, unknown>, { count: number; findings: XmcpFinding[] }>();
function analysisOf(t: ListedTool): { count: number; findings: XmcpFinding[] } {
  let analysis = analyses.get(t.tool);
  if (!analysis) {
    const { annotations } = isObject(t.tool.inputSchema) ? findHeaderAnnotations(t.tool.inputSchema) : { annotations: [] };
    analysis = { count: annotations.length, findings: checkHeaderAnnotations(annotations) };
    analyses.set(t.tool, analysis);
  }
  return analysis;
}

const annotated = (t: ListedTool) => analysisOf(t).count > 0;

const CONSTRAINTS = 'Constraints on `x-mcp-header` values: … ';

/** A sentence of server/tools § x-mcp-header (2026-07-28 only: 2025-11-25 has no x-mcp-header). */
const onTools = (text: string, keyword: KeywordText): SpecSentence => ({ ref: 'server/tools#x-mcp-header', text, keyword });

function xmcpCheck(rule: XmcpRule, sentence: SpecSentence, title: string, expected: string, covers?: string[]): CheckDefinition {
  return {
    id: rule,
    ...(covers ? { covers } : {}),
    keyword: sentence.keyword,
    title,
    specRef: sentence.ref,
    area: 'x-mcp-header',
    wires: MODERN,
    sentences: { '2026-07-28': [sentence] },
    run: (ctx: CheckContext) =>
      perTool(
        ctx,
        (t) => {
          const mine = analysisOf(t).findings.filter((f) => f.rule === rule);
          if (mine.length === 0) return undefined;
          return fail(mine.map((f) => `${f.pointer || '(root)'}: ${f.message}`).join('; '), expected);
        },
        { checked: 'tools with x-mcp-header annotations', applies: annotated, none: 'no tool uses x-mcp-header' },
      ),
  };
}

export const X_MCP_HEADER_CHECKS = [
  xmcpCheck('xmcp.value.non-empty', onTools(`${CONSTRAINTS}MUST NOT be empty`, 'MUST NOT'), 'x-mcp-header values are not empty', 'a non-empty header name part'),
  xmcpCheck(
    'xmcp.value.token',
    onTools(`${CONSTRAINTS}MUST match HTTP field-name token syntax (\`1*tchar\`, RFC 9110 Section 5.1)`, 'MUST'),
    'x-mcp-header values are HTTP field-name tokens (1*tchar)', "only tchar: A-Z a-z 0-9 ! # $ % & ' * + - . ^ _ ` | ~"),
  xmcpCheck(
    'xmcp.value.no-ctl',
    onTools(`${CONSTRAINTS}MUST NOT contain control characters, including carriage return (CR, \`\\r\`) or line feed (LF, \`\\n\`)`, 'MUST NOT'),
    'x-mcp-header values contain no control characters (CR, LF, …)', 'no character below 0x20, nor 0x7F'),
  xmcpCheck(
    'xmcp.value.unique-ci',
    onTools(`${CONSTRAINTS}MUST be case-insensitively unique among all \`x-mcp-header\` values in the \`inputSchema\``, 'MUST'),
    'x-mcp-header values are unique within the inputSchema, ignoring case', 'each Mcp-Param-{Name} names one parameter'),
  xmcpCheck(
    'xmcp.target.primitive',
    onTools(`${CONSTRAINTS}MUST only be applied to parameters with primitive types (integer, string, boolean). Parameters with type \`number\` are not permitted.`, 'MUST'),
    'x-mcp-header annotates only integer, string or boolean parameters (not number)',
    'the annotated property has type "integer", "string" or "boolean" (see CONFORMANCE.md for type arrays and enums)',
  ),
  xmcpCheck(
    'xmcp.target.int-safe-range',
    onTools(`${CONSTRAINTS}Integer values MUST be within the safe range for integers represented using IEEE754 double-precision floating point numbers`, 'MUST'),
    'Integer parameters mirrored into headers stay within ±(2^53−1)',
    'minimum, maximum, const and enum values within -(2^53-1) … 2^53-1',
  ),
  xmcpCheck(
    'xmcp.target.static-reach',
    onTools(`${CONSTRAINTS}MUST only be applied to properties that are _statically reachable_ from the schema root`, 'MUST'),
    'x-mcp-header sits only on properties reachable from the root through "properties" alone',
    'the annotation at /properties/<a>(/properties/<b>)* — never under items, anyOf/oneOf/allOf/not, if/then/else, $ref, $defs or additionalProperties',
    ['xmcp.target.chain'],
  ),
  xmcpCheck(
    'xmcp.server.no-sensitive',
    onTools(
      'Server developers SHOULD NOT mark sensitive parameters (passwords, API keys, tokens, PII) with `x-mcp-header`, as header values are visible to network intermediaries.',
      'SHOULD NOT',
    ),
    'x-mcp-header does not mirror sensitive parameters (passwords, keys, tokens, PII)',
    'sensitive values stay in the body: header values are visible to network intermediaries',
  ),
] as const;
