import { errorOf, isObject, resultOf } from '../src/jsonrpc.js';
import type { CheckContext } from '../src/runner/context.js';
import type { CheckDefinition, KeywordText, Outcome, SpecSentences } from '../src/runner/types.js';
import { compileArgumentSchema, sampleArguments } from '../src/schema/arguments/index.js';
import { annotatedType, checkHeaderAnnotations, findHeaderAnnotations, type HeaderAnnotation } from '../src/schema/xmcp/index.js';
import { encodeHeaderValue } from '../src/transport/header-encoding.js';
import type { Exchange } from '../src/transport/types.js';
import { listedTools } from './listed-tools.js';
import { fail, pass, skip } from './outcome.js';

const MODERN = ['2026-07-28'] as const;
const SPEC = 'basic/transports/streamable-http#server-behavior-for-custom-headers';
const VALIDATE = {
  ref: SPEC,
  text: 'Any server that processes the message body MUST validate that encoded header values, after decoding if Base64-encoded, match the corresponding values in the request body.',
  keyword: 'MUST',
} as const;
const REJECT_400 = {
  ref: SPEC,
  text: 'Servers MUST reject requests with a 400 Bad Request HTTP status and JSON-RPC error code -32020 (HeaderMismatch) if any validation fails.',
  keyword: 'MUST',
} as const;

interface Target {
  tool: string;
  header: string;
  args: Record<string, unknown>;
  annotation: HeaderAnnotation;
  type: 'string' | 'integer' | 'boolean';
}

interface Probes {
  target?: Target;
  why?: string;
  correct?: Exchange;
  missing?: Exchange;
  mismatched?: Exchange;
  encoded?: Exchange;
  encodedValue?: string;
}

/** Judged by the code alone: a 400 may just as well be the tool's own -32602 for the argument value. */
const mismatchReported = (e: Exchange | undefined) => errorOf(e?.response)?.code === -32020;
const rejected = (e: Exchange | undefined) => e?.status === 400 && mismatchReported(e);
const servedResult = (e: Exchange | undefined) => {
  const result = resultOf(e?.response);
  return result !== undefined && result.isError !== true;
};
/** The tool's own validation refused the sample: -32602 (Invalid params) or a result with isError. */
const refusedByTool = (e: Exchange | undefined) => errorOf(e?.response)?.code === -32602 || resultOf(e?.response)?.isError === true;
const describe = (e: Exchange) => {
  const result = resultOf(e.response);
  const body = errorOf(e.response) ? `error ${String(errorOf(e.response)!.code)}` : result ? (result.isError === true ? 'a result with isError: true' : 'a result') : e.failure?.message ?? 'nothing';
  return `HTTP ${e.status ?? '—'} with ${body}`;
};

function withValue(args: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(args);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
  return copy;
}

/** Values for the annotated parameter, most likely accepted first: its enum/const, the sampled ones, a plain one. */
function candidateValues(a: HeaderAnnotation, type: Target['type'], sampled: Record<string, unknown>): unknown[] {
  const inSample = a.propertyPath!.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), sampled);
  const own = sampleArguments({ type: 'object', properties: { value: a.schema }, required: ['value'] });
  const plain = type === 'string' ? 'us-west1' : type === 'integer' ? 7 : true;
  return [
    ...(Array.isArray(a.schema.enum) ? a.schema.enum : []),
    ...('const' in a.schema ? [a.schema.const] : []),
    ...(inSample === undefined || isObject(inSample) ? [] : [inSample]),
    ...(own.ok ? [own.value.value] : []),
    plain,
  ].filter((v) => (type === 'string' ? typeof v === 'string' : type === 'integer' ? Number.isInteger(v) : typeof v === 'boolean'));
}

/** Strings that need the Base64 form (non-ASCII, or leading/trailing space), tried until the schema accepts one. */
const needingBase64 = (plain: string) => ['Zürich Süd', `${plain}é`, `é${plain}`, ` ${plain} `];

/** A callable tool with a valid, reachable annotation, and valid arguments (its inputSchema accepts them) that set the annotated value. */
async function findTarget(ctx: CheckContext): Promise<Target | string> {
  for (const t of await listedTools(ctx)) {
    if (typeof t.tool.name !== 'string' || !ctx.mayCall(t.tool) || !isObject(t.tool.inputSchema)) continue;
    const { annotations } = findHeaderAnnotations(t.tool.inputSchema);
    const findings = checkHeaderAnnotations(annotations);
    const usable = annotations.filter((a) => a.propertyPath && !findings.some((f) => f.pointer === a.pointer && f.rule !== 'xmcp.server.no-sensitive'));
    const sample = sampleArguments(t.tool.inputSchema);
    const compiled = compileArgumentSchema(t.tool.inputSchema);
    if (!sample.ok || !compiled.ok) continue;
    for (const a of usable) {
      const type = annotatedType(a.schema).type!;
      for (const value of candidateValues(a, type, sample.value)) {
        const args = withValue(sample.value, a.propertyPath!, value);
        if (compiled.validator.validate(args).valid) return { tool: t.tool.name, header: `Mcp-Param-${String(a.value)}`, args, annotation: a, type };
      }
    }
  }
  return 'no tool that may be called has a valid x-mcp-header parameter we can set';
}

/** The same call four ways: correct headers, header omitted, header mismatched, and (strings) a value that needs Base64. */
function probes(ctx: CheckContext): Promise<Probes> {
  return ctx.memo('param-header-probes', async () => {
    const target = await findTarget(ctx);
    if (typeof target === 'string') return { why: target };
    const call = (args: Record<string, unknown>, headers?: Record<string, string | null>) =>
      ctx.client.request('tools/call', { name: target.tool, arguments: args }, { headers, probe: true });
    const value = target.annotation.propertyPath!.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), target.args);
    const other = target.type === 'string' ? `${String(value)}-other` : target.type === 'integer' ? Number(value) + 1 : !value;
    const out: Probes = { target };
    out.correct = await call(target.args);
    out.missing = await call(target.args, { [target.header]: null });
    out.mismatched = await call(target.args, { [target.header]: encodeHeaderValue(other as string) });
    if (target.type === 'string') {
      const compiled = compileArgumentSchema((await listedTools(ctx)).find((t) => t.tool.name === target.tool)!.tool.inputSchema);
      for (const text of needingBase64(String(value))) {
        const args = withValue(target.args, target.annotation.propertyPath!, text);
        if (!compiled.ok || !compiled.validator.validate(args).valid) continue;
        out.encodedValue = text;
        out.encoded = await call(args);
        break;
      }
    }
    return out;
  });
}

function paramCheck(options: {
  id: string;
  keyword: KeywordText;
  sentences: SpecSentences;
  title: string;
  covers?: string[];
  judge(p: Probes): Outcome;
}): CheckDefinition {
  return {
    id: options.id,
    keyword: options.keyword,
    sentences: options.sentences,
    title: options.title,
    specRef: SPEC,
    ...(options.covers ? { covers: options.covers } : {}),
    area: 'http-headers',
    wires: MODERN,
    needs: ['live', 'http', 'tool-call'],
    phase: 'serial',
    async run(ctx) {
      const p = await probes(ctx);
      if (!p.target) return [skip(p.why!)];
      return [{ ...options.judge(p), tool: p.target.tool }];
    },
  };
}

/** Why the other probes cannot be judged: the correct call itself was not served. */
function baselineProblem(p: Probes): string | undefined {
  if (servedResult(p.correct)) return undefined;
  if (mismatchReported(p.correct)) return 'correct headers are already rejected (see xmcp.server.validate-present)';
  return `the call with correct headers was not served (${describe(p.correct!)}), so a rejection of a faulty header could have other causes`;
}

const toolRefusal = (what: string, e: Exchange) =>
  `the tool's own validation refused ${what}, which its inputSchema accepts (${describe(e)}); only -32020 would mean the header was rejected`;

export const PARAM_HEADER_CHECKS = [
  paramCheck({
    id: 'xmcp.server.validate-present',
    keyword: 'MUST',
    sentences: {
      '2026-07-28': [
        {
          ref: 'basic/index#error-codes',
          text: 'Implementations MUST NOT emit any code from this sub-range that is not defined by this specification and MUST use defined codes only with their specified meanings.',
          keyword: 'MUST',
        },
        VALIDATE,
      ],
    },
    title: 'A tools/call with correct Mcp-Param-* headers is not rejected as a header mismatch (-32020)',
    judge: (p) => {
      const e = p.correct!;
      if (mismatchReported(e)) {
        return fail(`${p.target!.header} matching the body was rejected as a header mismatch: ${describe(e)}`, 'no -32020 (HeaderMismatch): the header matches the body', [e]);
      }
      if (refusedByTool(e)) return skip(toolRefusal('the sample arguments', e));
      if (!servedResult(e)) return skip(`the call with correct headers got ${describe(e)}: neither served nor rejected as a header mismatch`);
      return pass(`${p.target!.header} matching the body was accepted (${describe(e)})`, [e]);
    },
  }),
  paramCheck({
    id: 'xmcp.server.reject-missing',
    keyword: 'MUST',
    sentences: {
      '2026-07-28': [{ ref: SPEC, text: 'Client omits header but value is in body | Non-conforming client | Server MUST reject the request', keyword: 'MUST' }, REJECT_400],
    },
    title: 'A tools/call whose annotated argument is set but whose Mcp-Param-* header is missing is rejected with 400 and -32020',
    judge: (p) =>
      baselineProblem(p)
        ? skip(baselineProblem(p)!)
        : rejected(p.missing)
          ? pass(`omitting ${p.target!.header} was rejected (${describe(p.missing!)})`, [p.missing!])
          : fail(`omitting ${p.target!.header} got ${describe(p.missing!)}`, 'HTTP 400 with -32020: the value is in the body, so the header must be too', [p.missing!]),
  }),
  paramCheck({
    id: 'xmcp.server.validate',
    keyword: 'MUST',
    sentences: { '2026-07-28': [VALIDATE, REJECT_400] },
    covers: ['xmcp.server.reject-400-32020', 'http.validate.mismatch'],
    title: 'A Mcp-Param-* header that does not match the body is rejected with 400 and -32020',
    judge: (p) =>
      baselineProblem(p)
        ? skip(baselineProblem(p)!)
        : rejected(p.mismatched)
          ? pass(`a mismatched ${p.target!.header} was rejected (${describe(p.mismatched!)})`, [p.mismatched!])
          : fail(`a mismatched ${p.target!.header} got ${describe(p.mismatched!)}`, 'HTTP 400 with -32020 (HeaderMismatch)', [p.mismatched!]),
  }),
  paramCheck({
    id: 'enc.server.decode',
    keyword: 'MUST',
    sentences: {
      '2026-07-28': [
        {
          ref: 'basic/transports/streamable-http#value-encoding',
          text: 'In particular, servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing it to the corresponding request body value during Server Validation.',
          keyword: 'MUST',
        },
      ],
    },
    covers: ['enc.server.decode-before-compare'],
    title: 'A Base64-sentinel Mcp-Param-* value (=?base64?…?=) is decoded before it is compared',
    judge: (p) => {
      if (!p.encoded) return skip("the annotated parameter's schema accepts no value that needs the Base64 form");
      const baseline = baselineProblem(p);
      if (baseline) return skip(baseline);
      const sent = `${JSON.stringify(p.encodedValue)} sent as ${encodeHeaderValue(p.encodedValue!)}`;
      if (mismatchReported(p.encoded)) {
        return fail(`${sent} was rejected as a header mismatch: ${describe(p.encoded)}`, 'no -32020: the header, once decoded, matches the body', [p.encoded]);
      }
      if (refusedByTool(p.encoded)) return skip(toolRefusal(`the value ${JSON.stringify(p.encodedValue)}`, p.encoded));
      if (!servedResult(p.encoded)) return skip(`${sent} got ${describe(p.encoded)}: neither served nor rejected as a header mismatch`);
      return pass(`${sent} was accepted (${describe(p.encoded)})`, [p.encoded]);
    },
  }),
];
