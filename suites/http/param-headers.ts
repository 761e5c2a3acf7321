import { defineCheck } from '../kit/define-check.js';
import {
  annotatedType,
  type CheckContext,
  type CheckDefinition,
  checkHeaderAnnotations,
  compileArgumentSchema,
  encodeHeaderValue,
  ERR,
  errorOf,
  type Exchange,
  findHeaderAnnotations,
  type HeaderAnnotation,
  isObject,
  type Outcome,
  resultOf,
  sampleArguments,
  type SpecSentences,
} from '../kit/index.js';
import { listedTools } from '../kit/listed-tools.js';
import { fail, pass, skip } from '../kit/outcome.js';

const SPEC = 'basic/transports/streamable-http#server-behavior-for-custom-headers';
const VALIDATE = {
  ref: SPEC,
  text:
    'Any server that processes the message body MUST validate that encoded header values, after decoding if ' +
    'Base64-encoded, match the corresponding values in the request body.',
  keyword: 'MUST',
} as const;
const REJECT_400 = {
  ref: SPEC,
  text:
    'Servers MUST reject requests with a 400 Bad Request HTTP status and JSON-RPC error code -32020 ' +
    '(HeaderMismatch) if any validation fails.',
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
const mismatchReported = (e: Exchange | undefined) => errorOf(e?.response)?.code === ERR.headerMismatch;
const rejected = (e: Exchange | undefined) => e?.status === 400 && mismatchReported(e);
const servedResult = (e: Exchange | undefined) => {
  const result = resultOf(e?.response);
  return result !== undefined && result.isError !== true;
};
/** The tool's own validation refused the sample: -32602 (Invalid params) or a result with isError. */
const refusedByTool = (e: Exchange | undefined) =>
  errorOf(e?.response)?.code === ERR.invalidParams || resultOf(e?.response)?.isError === true;
const describe = (e: Exchange) => {
  const result = resultOf(e.response);
  const body = errorOf(e.response)
    ? `error ${String(errorOf(e.response)!.code)}`
    : result
      ? result.isError === true
        ? 'a result with isError: true'
        : 'a result'
      : (e.failure?.message ?? 'nothing');
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
  ].filter((v) =>
    type === 'string' ? typeof v === 'string' : type === 'integer' ? Number.isInteger(v) : typeof v === 'boolean',
  );
}

/** Strings that need the Base64 form (non-ASCII, or leading/trailing space), tried until the schema accepts one. */
const needingBase64 = (plain: string) => ['Zürich Süd', `${plain}é`, `é${plain}`, ` ${plain} `];

/**
 * A callable tool with a valid, reachable annotation, and valid arguments (its inputSchema accepts them) that set the
 * annotated value.
 */
async function findTarget(ctx: CheckContext): Promise<Target | string> {
  for (const t of await listedTools(ctx)) {
    if (typeof t.tool.name !== 'string' || !ctx.mayCall(t.tool) || !isObject(t.tool.inputSchema)) continue;
    const { annotations } = findHeaderAnnotations(t.tool.inputSchema);
    const findings = checkHeaderAnnotations(annotations, t.tool.inputSchema);
    // Advisory findings (integers the schema merely admits beyond 2^53−1) leave the annotation valid.
    const usable = annotations.filter(
      (a) =>
        a.propertyPath &&
        !findings.some((f) => f.pointer === a.pointer && !f.advisory && f.rule !== 'xmcp.server.no-sensitive'),
    );
    const sample = sampleArguments(t.tool.inputSchema);
    const compiled = compileArgumentSchema(t.tool.inputSchema);
    if (!sample.ok || !compiled.ok) continue;
    for (const a of usable) {
      const { type } = annotatedType(a.schema, t.tool.inputSchema);
      if (!type) continue;
      for (const value of candidateValues(a, type, sample.value)) {
        const args = withValue(sample.value, a.propertyPath!, value);
        if (compiled.validator.validate(args).valid)
          return { tool: t.tool.name, header: `Mcp-Param-${String(a.value)}`, args, annotation: a, type };
      }
    }
  }
  return 'no tool that may be called has a valid x-mcp-header parameter we can set';
}

/**
 * The same call four ways: correct headers, header omitted, header mismatched, and (strings) a value that needs Base64.
 */
function probes(ctx: CheckContext): Promise<Probes> {
  return ctx.memo('param-header-probes', async () => {
    const target = await findTarget(ctx);
    if (typeof target === 'string') return { why: target };
    const call = (args: Record<string, unknown>, headers?: Record<string, string | null>) =>
      ctx.client.request(
        'tools/call',
        { name: target.tool, arguments: args },
        { headers, probe: true, anyConnection: true },
      );
    const value = target.annotation.propertyPath!.reduce<unknown>(
      (node, key) => (isObject(node) ? node[key] : undefined),
      target.args,
    );
    const other =
      target.type === 'string' ? `${String(value)}-other` : target.type === 'integer' ? Number(value) + 1 : !value;
    let encoded: { text: string; args: Record<string, unknown> } | undefined;
    if (target.type === 'string') {
      const compiled = compileArgumentSchema(
        (await listedTools(ctx)).find((t) => t.tool.name === target.tool)!.tool.inputSchema,
      );
      for (const text of needingBase64(String(value))) {
        const args = withValue(target.args, target.annotation.propertyPath!, text);
        if (!compiled.ok || !compiled.validator.validate(args).valid) continue;
        encoded = { text, args };
        break;
      }
    }
    // Four independent calls, each judged on its own: they overlap (HTTP only, over the pool's connections).
    const [correct, missing, mismatched, encodedCall] = await Promise.all([
      call(target.args),
      call(target.args, { [target.header]: null }),
      call(target.args, { [target.header]: encodeHeaderValue(other as string) }),
      encoded ? call(encoded.args) : undefined,
    ]);
    return {
      target,
      correct,
      missing,
      mismatched,
      ...(encoded && encodedCall ? { encodedValue: encoded.text, encoded: encodedCall } : {}),
    };
  });
}

/** The annotated argument left out, or set to null, with no Mcp-Param-* header (the client sends none for either). */
export interface UnsetProbe {
  how: 'absent' | 'null';
  /**
   * Whether the tool's inputSchema accepts the arguments so changed (if not, -32602 or isError is the right answer).
   */
  schemaAccepts: boolean;
  exchange: Exchange;
}

function withoutValue(args: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const copy = structuredClone(args);
  let node: unknown = copy;
  for (const key of path.slice(0, -1)) node = isObject(node) ? node[key] : undefined;
  if (isObject(node)) delete node[path.at(-1)!];
  return copy;
}

/**
 * The probe target's call twice more: the annotated argument absent, then null, each without its Mcp-Param-* header.
 * Both are sent whatever the inputSchema says: a server that does not expect the header answers a value its schema
 * refuses with -32602 or an isError result, never with -32020; only the (read-only) probe tool is called.
 */
function unsetProbes(ctx: CheckContext, target: Target): Promise<UnsetProbe[]> {
  return ctx.memo('param-header-unset-probes', async () => {
    const listed = (await listedTools(ctx)).find((t) => t.tool.name === target.tool)!;
    const compiled = compileArgumentSchema(listed.tool.inputSchema);
    const path = target.annotation.propertyPath!;
    return Promise.all(
      (['absent', 'null'] as const).map(async (how) => {
        const args = how === 'absent' ? withoutValue(target.args, path) : withValue(target.args, path, null);
        const exchange = await ctx.client.request(
          'tools/call',
          { name: target.tool, arguments: args },
          { headers: { [target.header]: null }, probe: true, anyConnection: true },
        );
        return { how, schemaAccepts: compiled.ok && compiled.validator.validate(args).valid === true, exchange };
      }),
    );
  });
}

/** xmcp.server.no-expect-null-or-absent: -32020 to an unset argument without its header is the only failure. */
export function judgeUnset(
  header: string,
  path: readonly string[],
  correct: Exchange,
  unset: readonly UnsetProbe[],
): Outcome {
  if (mismatchReported(correct))
    return skip('correct headers are already rejected as a header mismatch (see xmcp.server.validate-present)');
  const what = (u: UnsetProbe) =>
    `arguments.${path.join('.')} ${u.how === 'absent' ? 'left out' : 'null'} (` +
    `${
      u.schemaAccepts
        ? 'the inputSchema accepts that'
        : 'the inputSchema does not accept that, so -32602 or ' + 'isError is a fine answer'
    }` +
    `) without ${header}: ${describe(u.exchange)}`;
  const expecting = unset.filter((u) => mismatchReported(u.exchange));
  const evidence = unset.map((u) => u.exchange);
  if (expecting.length > 0) {
    return fail(
      expecting.map(what).join('; '),
      `no -32020 (HeaderMismatch): with the argument ${expecting.map((u) => u.how).join(' or ')} there is no ` +
        `${header} to expect`,
      evidence,
    );
  }
  const answered = unset.filter((u) => u.exchange.response !== undefined);
  if (answered.length === 0) return skip(`neither probe got a JSON-RPC answer to judge: ${unset.map(what).join('; ')}`);
  const unclear = unset.filter((u) => u.exchange.response === undefined);
  return pass(
    `not rejected as a header mismatch: ${answered.map(what).join('; ')}` +
      `${unclear.length > 0 ? `; not judged (no JSON-RPC answer): ${unclear.map(what).join('; ')}` : ''}`,
    evidence,
  );
}

/** One tools/call whose recognized Mcp-Param-* header carries bytes 0x80–0xFF. */
export interface InvalidCharProbe {
  /** What was sent, for messages. */
  label: string;
  exchange: Exchange;
}

export interface InvalidCharProbes {
  probes: InvalidCharProbe[];
  /**
   * Whether each header, read the way some HTTP stack reads header bytes (ISO-8859-1 as Node does, UTF-8 as Go's
   * strings do), equals the body value: then only a check of the characters rejects it, not the comparison.
   */
  matchesBody: boolean;
  /** The same body value sent with a correct header (Base64 form, or plain): was it served? */
  baseline: Exchange;
}

/** Header-safe per Value Encoding: visible ASCII, space and tab. */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
/** A body value whose own characters can go on the wire as raw bytes 0x80–0xFF (Latin-1), trimmed, no controls. */
const rawSendable = (text: string) =>
  /^[\x21-\x7e\xa0-\xff](?:[\x20-\x7e\xa0-\xff]*[\x21-\x7e\xa0-\xff])?$/.test(text) && !HEADER_SAFE.test(text);
const hexBytes = (header: string) =>
  Buffer.from(header, 'latin1')
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ')
    .toUpperCase();

/**
 * Header values with invalid characters. undici (Node's HTTP client) refuses to send control characters (CR, LF, NUL,
 * 0x01–0x1F but tab, 0x7F) and anything above U+00FF ("invalid … header"); it sends U+0080–U+00FF as the single raw
 * bytes 0x80–0xFF (obs-text), which Value Encoding does not allow in a header value either. Those are the probes.
 * When the schema accepts a body value with such characters (the Base64 probe's value), the header carries that very
 * text as raw bytes, once as ISO-8859-1 and once as UTF-8, so a server that decodes the bytes either way and only
 * compares would accept it; otherwise the correct header gets a byte 0xE9 appended (then it also mismatches).
 */
function invalidCharProbes(ctx: CheckContext, p: Probes): Promise<InvalidCharProbes> {
  return ctx.memo('param-header-invalid-char-probes', async () => {
    const target = p.target!;
    const call = (args: Record<string, unknown>, header: string) =>
      ctx.client.request(
        'tools/call',
        { name: target.tool, arguments: args },
        { headers: { [target.header]: header }, probe: true, anyConnection: true },
      );
    const text = p.encodedValue;
    if (p.encoded && text !== undefined && rawSendable(text)) {
      const args = withValue(target.args, target.annotation.propertyPath!, text);
      const probes: InvalidCharProbe[] = [];
      for (const [form, header] of [
        ['ISO-8859-1', text],
        ['UTF-8', Buffer.from(text, 'utf8').toString('latin1')],
      ] as const) {
        probes.push({
          label:
            `body ${JSON.stringify(text)}, ${target.header} the same text as raw ${form} bytes (` +
            `${hexBytes(header)})`,
          exchange: await call(args, header),
        });
      }
      return { probes, matchesBody: true, baseline: p.encoded };
    }
    const value = target.annotation.propertyPath!.reduce<unknown>(
      (node, key) => (isObject(node) ? node[key] : undefined),
      target.args,
    );
    const correct = typeof value === 'string' ? encodeHeaderValue(value) : String(value);
    const header = `${correct}\u00e9`;
    return {
      probes: [
        {
          label:
            `${target.header} ${JSON.stringify(correct)} with a raw byte 0xE9 appended (${hexBytes(header)}), ` +
            `the body unchanged`,
          exchange: await call(target.args, header),
        },
      ],
      matchesBody: false,
      baseline: p.correct!,
    };
  });
}

/** How one invalid-character probe was answered: rejected as required, accepted, or something else. */
export function invalidCharVerdict(e: Exchange): 'rejected' | 'rejected-by-http' | 'accepted' | 'other' | 'no-answer' {
  if (rejected(e)) return 'rejected';
  if (e.status === undefined) return 'no-answer';
  if (resultOf(e.response) !== undefined) return 'accepted';
  // Refused before any JSON-RPC processing: the HTTP stack's own 400 (as intermediaries may answer, streamable-http §
  // Server Validation).
  if (e.status === 400 && e.response === undefined) return 'rejected-by-http';
  return 'other';
}

/** xmcp.server.reject-invalid-chars. */
export function judgeInvalidChars(header: string, found: InvalidCharProbes): Outcome {
  const evidence = found.probes.map((probe) => probe.exchange);
  const verdicts = found.probes.map((probe) => ({ ...probe, verdict: invalidCharVerdict(probe.exchange) }));
  const line = (v: (typeof verdicts)[number]) => `${v.label}: ${describe(v.exchange)}`;
  const expected =
    `HTTP 400 with -32020 (HeaderMismatch): a ${header} value with characters outside visible ASCII, ` +
    `space and tab is invalid`;
  const caveat = found.matchesBody
    ? ''
    : ' (this header also differs from the body, so the rejection may be for the mismatch)';
  const accepted = verdicts.filter((v) => v.verdict === 'accepted');
  const rest = verdicts.filter((v) => v.verdict !== 'accepted');
  if (accepted.length > 0) {
    return fail(
      `accepted: ${accepted.map(line).join('; ')}${rest.length > 0 ? `; while ${rest.map(line).join('; ')}` : ''}`,
      expected,
      evidence,
    );
  }
  const baselineServed = servedResult(found.baseline);
  const other = verdicts.filter((v) => v.verdict === 'other');
  if (other.length > 0) {
    if (!baselineServed) {
      return skip(
        `${other.map(line).join('; ')}; the same body with a correct ${header} got ${describe(found.baseline)}` +
          `, so this answer need not concern the header`,
      );
    }
    return fail(`rejected, but not with HTTP 400 and -32020: ${other.map(line).join('; ')}`, expected, evidence);
  }
  const silent = verdicts.filter((v) => v.verdict === 'no-answer');
  if (silent.length > 0) return skip(`no HTTP answer to judge: ${silent.map(line).join('; ')}`);
  const byHttp = verdicts.some((v) => v.verdict === 'rejected-by-http');
  return pass(
    `rejected${caveat}: ${verdicts.map(line).join('; ')}` +
      `${
        byHttp
          ? ' — a 400 without a JSON-RPC body is taken as the HTTP layer refusing the bytes before the MCP ' +
            'server saw them'
          : ''
      }`,
    evidence,
  );
}

/** The same request sent with its MCP header names upper-cased, then lower-cased (values unchanged). */
export interface NameCaseProbes {
  /** What was probed: the param-header probe call, or tools/list when no tool call could be probed. */
  what: string;
  /** The request with the canonical header names, and how it was answered. */
  baseline: Exchange;
  variants: { spelling: string; exchange: Exchange }[];
}

/** MCP header names of a request as the client spelled them, with their values. */
const mcpHeaders = (e: Exchange) => Object.entries(e.requestHeaders ?? {}).filter(([name]) => /^mcp-/i.test(name));

/**
 * http.hdr.name-ci: the correct param-header probe call (or, when there is none that was served, a tools/list) again
 * with every MCP header name (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*) spelled in upper case, then in
 * lower case (as HTTP/2 always sends them). undici writes a name as given.
 */
function nameCaseProbes(ctx: CheckContext, p: Probes): Promise<NameCaseProbes> {
  return ctx.memo('header-name-case-probes', async () => {
    const useCall = p.target !== undefined && servedResult(p.correct);
    const what = useCall ? `tools/call of ${p.target!.tool}` : 'tools/list';
    const send = (headers?: Record<string, string>) =>
      useCall
        ? ctx.client.request(
            'tools/call',
            { name: p.target!.tool, arguments: p.target!.args },
            { headers, probe: true, anyConnection: true },
          )
        : ctx.client.request('tools/list', {}, { headers, probe: true });
    const baseline = useCall ? p.correct! : await send();
    const variants: NameCaseProbes['variants'] = [];
    for (const [spelling, recase] of [
      ['upper case', (name: string) => name.toUpperCase()],
      ['lower case', (name: string) => name.toLowerCase()],
    ] as const) {
      const headers = Object.fromEntries(mcpHeaders(baseline).map(([name, value]) => [recase(name), value]));
      variants.push({ spelling, exchange: await send(headers) });
    }
    return { what, baseline, variants };
  });
}

/** Whether a request was served: a result (an isError result too: the tool ran) and no 4xx/5xx. */
const answeredWithResult = (e: Exchange) => resultOf(e.response) !== undefined && (e.status ?? 200) < 400;

export function judgeNameCase(found: NameCaseProbes): Outcome {
  const names = (e: Exchange) =>
    mcpHeaders(e)
      .map(([name]) => name)
      .join(', ');
  if (!answeredWithResult(found.baseline)) {
    return skip(
      `the ${found.what} with the usual header names got ${describe(found.baseline)}, so nothing shows what ` +
        `another spelling changes`,
    );
  }
  const evidence = [found.baseline, ...found.variants.map((v) => v.exchange)];
  const line = (v: NameCaseProbes['variants'][number]) =>
    `${v.spelling} (${names(v.exchange)}): ${describe(v.exchange)}`;
  const refused = found.variants.filter((v) => !answeredWithResult(v.exchange));
  if (
    refused.some(
      (v) =>
        v.exchange.status === undefined &&
        v.exchange.response === undefined &&
        v.exchange.failure?.kind !== 'http-status',
    )
  ) {
    return skip(`no HTTP answer to judge: ${refused.map(line).join('; ')}`);
  }
  if (refused.length > 0) {
    return fail(
      `the ${found.what} was served with ${names(found.baseline)} (${describe(found.baseline)}), but not with ` +
        `the header names in ${refused.map(line).join('; ')}`,
      'the same answer whatever the case of the header names: HTTP header names are case-insensitive',
      evidence,
    );
  }
  return pass(
    `the ${found.what} was served with its MCP header names in ${found.variants.map(line).join('; ')}`,
    evidence,
  );
}

function paramCheck(options: {
  id: string;
  sentences: SpecSentences;
  title: string;
  covers?: string[];
  judge(p: Probes, ctx: CheckContext): Outcome | Promise<Outcome>;
}): CheckDefinition {
  return defineCheck({
    id: options.id,
    sentences: options.sentences,
    title: options.title,
    specRef: SPEC,
    ...(options.covers ? { covers: options.covers } : {}),
    area: 'http-headers',
    needs: ['live', 'http', 'tool-call'],
    phase: 'serial',
    async run(ctx) {
      const p = await probes(ctx);
      if (!p.target) return [skip(p.why!)];
      return [{ ...(await options.judge(p, ctx)), tool: p.target.tool }];
    },
  });
}

/** Why the other probes cannot be judged: the correct call itself was not served. */
function baselineProblem(p: Probes): string | undefined {
  if (servedResult(p.correct)) return undefined;
  if (mismatchReported(p.correct)) return 'correct headers are already rejected (see xmcp.server.validate-present)';
  return (
    `the call with correct headers was not served (${describe(p.correct!)}), so a rejection of a faulty header ` +
    `could have other causes`
  );
}

const toolRefusal = (what: string, e: Exchange) =>
  `the tool's own validation refused ${what}, which its inputSchema accepts (${describe(e)}); only -32020 ` +
  `would mean the header was rejected`;

export const PARAM_HEADER_CHECKS = [
  paramCheck({
    id: 'xmcp.server.validate-present',
    sentences: {
      '2026-07-28': [
        {
          ref: 'basic/index#error-codes',
          text:
            'Implementations MUST NOT emit any code from this sub-range that is not defined by this ' +
            'specification and MUST use defined codes only with their specified meanings.',
          keyword: 'MUST',
        },
        VALIDATE,
      ],
    },
    title: 'A tools/call with correct Mcp-Param-* headers is not rejected as a header mismatch (-32020)',
    judge: (p) => {
      const e = p.correct!;
      if (mismatchReported(e)) {
        return fail(
          `${p.target!.header} matching the body was rejected as a header mismatch: ${describe(e)}`,
          'no -32020 (HeaderMismatch): the header matches the body',
          [e],
        );
      }
      if (refusedByTool(e)) return skip(toolRefusal('the sample arguments', e));
      if (!servedResult(e))
        return skip(
          `the call with correct headers got ${describe(e)}: neither served nor rejected as a header mismatch`,
        );
      return pass(`${p.target!.header} matching the body was accepted (${describe(e)})`, [e]);
    },
  }),
  paramCheck({
    id: 'xmcp.server.reject-missing',
    sentences: {
      '2026-07-28': [
        {
          ref: SPEC,
          text: 'Client omits header but value is in body | Non-conforming client | Server MUST reject the request',
          keyword: 'MUST',
        },
        REJECT_400,
      ],
    },
    title:
      'A tools/call whose annotated argument is set but whose Mcp-Param-* header is missing is rejected with ' +
      '400 and -32020',
    judge: (p) =>
      baselineProblem(p)
        ? skip(baselineProblem(p)!)
        : rejected(p.missing)
          ? pass(`omitting ${p.target!.header} was rejected (${describe(p.missing!)})`, [p.missing!])
          : fail(
              `omitting ${p.target!.header} got ${describe(p.missing!)}`,
              'HTTP 400 with -32020: the value is in the body, so the header must be too',
              [p.missing!],
            ),
  }),
  paramCheck({
    id: 'xmcp.server.validate',
    sentences: { '2026-07-28': [VALIDATE, REJECT_400] },
    covers: ['xmcp.server.reject-400-32020', 'http.validate.mismatch'],
    title: 'A Mcp-Param-* header that does not match the body is rejected with 400 and -32020',
    judge: (p) =>
      baselineProblem(p)
        ? skip(baselineProblem(p)!)
        : rejected(p.mismatched)
          ? pass(`a mismatched ${p.target!.header} was rejected (${describe(p.mismatched!)})`, [p.mismatched!])
          : fail(
              `a mismatched ${p.target!.header} got ${describe(p.mismatched!)}`,
              'HTTP 400 with -32020 (HeaderMismatch)',
              [p.mismatched!],
            ),
  }),
  paramCheck({
    id: 'enc.server.decode',
    sentences: {
      '2026-07-28': [
        {
          ref: 'basic/transports/streamable-http#value-encoding',
          text:
            'In particular, servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing ' +
            'it to the corresponding request body value during Server Validation.',
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
        return fail(
          `${sent} was rejected as a header mismatch: ${describe(p.encoded)}`,
          'no -32020: the header, once decoded, matches the body',
          [p.encoded],
        );
      }
      if (refusedByTool(p.encoded)) return skip(toolRefusal(`the value ${JSON.stringify(p.encodedValue)}`, p.encoded));
      if (!servedResult(p.encoded))
        return skip(`${sent} got ${describe(p.encoded)}: neither served nor rejected as a header mismatch`);
      return pass(`${sent} was accepted (${describe(p.encoded)})`, [p.encoded]);
    },
  }),
  paramCheck({
    id: 'xmcp.server.no-expect-null-or-absent',
    sentences: {
      '2026-07-28': [
        {
          ref: SPEC,
          text: 'Parameter value is `null` | Client MUST omit the header | Server MUST NOT expect the header',
          keyword: 'MUST NOT',
        },
        {
          ref: SPEC,
          text: 'Parameter not in arguments | Client MUST omit the header | Server MUST NOT expect the header',
          keyword: 'MUST NOT',
        },
      ],
    },
    title:
      'A tools/call whose annotated argument is null or left out, sent without its Mcp-Param-* header, is not ' +
      'rejected as a header mismatch',
    judge: async (p, ctx) =>
      judgeUnset(p.target!.header, p.target!.annotation.propertyPath!, p.correct!, await unsetProbes(ctx, p.target!)),
  }),
  paramCheck({
    id: 'xmcp.server.reject-invalid-chars',
    sentences: {
      '2026-07-28': [
        {
          ref: SPEC,
          text:
            'Servers MUST reject requests with a recognized Mcp-Param-{Name} header that contains invalid ' +
            'characters (see Value Encoding).',
          keyword: 'MUST',
        },
        REJECT_400,
        {
          ref: 'basic/transports/streamable-http#server-validation',
          text: 'A header value contains invalid characters.',
          keyword: 'descriptive',
        },
        {
          ref: 'basic/transports/streamable-http#value-encoding',
          text:
            'Per RFC 9110, HTTP header field values must consist of visible ASCII characters (0x21-0x7E), space ' +
            '(0x20), and horizontal tab (0x09).',
          keyword: 'descriptive',
        },
      ],
    },
    title:
      'A recognized Mcp-Param-* header with invalid characters (raw bytes 0x80–0xFF) is rejected with 400 and -32020',
    judge: async (p, ctx) => judgeInvalidChars(p.target!.header, await invalidCharProbes(ctx, p)),
  }),
  defineCheck({
    id: 'http.hdr.name-ci',
    sentences: {
      '2026-07-28': [
        {
          ref: 'basic/transports/streamable-http#case-sensitivity',
          text: 'Clients and servers MUST use case-insensitive comparisons for header names.',
          keyword: 'MUST',
        },
      ],
    },
    title:
      'The MCP headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*) are recognized whatever the ' +
      'case of their names',
    area: 'http-headers',
    needs: ['live', 'http', 'tool-call'],
    phase: 'serial',
    async run(ctx) {
      const p = await probes(ctx);
      const found = await nameCaseProbes(ctx, p);
      const outcome = judgeNameCase(found);
      return [found.what === 'tools/list' ? outcome : { ...outcome, tool: p.target!.tool }];
    },
  }) satisfies CheckDefinition,
];
