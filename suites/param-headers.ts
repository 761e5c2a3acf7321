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
}

const rejected = (e: Exchange | undefined) => e?.status === 400 && errorOf(e.response)?.code === -32020;
const served = (e: Exchange | undefined) => e !== undefined && errorOf(e.response)?.code !== -32020 && e.status !== 400;
const describe = (e: Exchange) => `HTTP ${e.status ?? '—'} with ${errorOf(e.response) ? `error ${String(errorOf(e.response)!.code)}` : resultOf(e.response) ? 'a result' : e.failure?.message ?? 'nothing'}`;

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

/** A callable tool with a valid, reachable annotation, and valid arguments that set the annotated value. */
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
      const candidates = [...(Array.isArray(a.schema.enum) ? a.schema.enum : []), ...('const' in a.schema ? [a.schema.const] : []), type === 'string' ? 'us-west1' : type === 'integer' ? 7 : true];
      for (const value of candidates) {
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
    const value = target.args[target.annotation.propertyPath!.at(-1)!];
    const other = target.type === 'string' ? `${String(value)}-other` : target.type === 'integer' ? Number(value) + 1 : !value;
    const out: Probes = { target };
    out.correct = await call(target.args);
    out.missing = await call(target.args, { [target.header]: null });
    out.mismatched = await call(target.args, { [target.header]: encodeHeaderValue(other as string) });
    if (target.type === 'string') {
      const needsBase64 = withValue(target.args, target.annotation.propertyPath!, 'Zürich Süd');
      const compiled = compileArgumentSchema((await listedTools(ctx)).find((t) => t.tool.name === target.tool)!.tool.inputSchema);
      if (compiled.ok && compiled.validator.validate(needsBase64).valid) out.encoded = await call(needsBase64);
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

const baselineFailed = (p: Probes) => !served(p.correct);

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
    title: 'A tools/call with correct Mcp-Param-* headers is accepted',
    judge: (p) =>
      served(p.correct)
        ? pass(`${p.target!.header} matching the body was accepted (${describe(p.correct!)})`, [p.correct!])
        : fail(`${p.target!.header} matching the body was rejected: ${describe(p.correct!)}`, 'the call served: the header matches the body', [p.correct!]),
  }),
  paramCheck({
    id: 'xmcp.server.reject-missing',
    keyword: 'MUST',
    sentences: {
      '2026-07-28': [{ ref: SPEC, text: 'Client omits header but value is in body | Non-conforming client | Server MUST reject the request', keyword: 'MUST' }, REJECT_400],
    },
    title: 'A tools/call whose annotated argument is set but whose Mcp-Param-* header is missing is rejected with 400 and -32020',
    judge: (p) =>
      baselineFailed(p)
        ? skip('correct headers are already rejected (see xmcp.server.validate-present)')
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
      baselineFailed(p)
        ? skip('correct headers are already rejected (see xmcp.server.validate-present)')
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
      if (!p.encoded) return skip('the annotated parameter is not a free string, so no value needing Base64 could be sent');
      if (baselineFailed(p)) return skip('correct headers are already rejected (see xmcp.server.validate-present)');
      return served(p.encoded)
        ? pass(`"Zürich Süd" sent as ${encodeHeaderValue('Zürich Süd')} was accepted`, [p.encoded])
        : fail(`"Zürich Süd" sent as ${encodeHeaderValue('Zürich Süd')} got ${describe(p.encoded)}`, 'the call served: servers MUST decode the sentinel form before comparing', [p.encoded]);
    },
  }),
];
