import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefectName } from './defects/index.js';
import { checkHeaderAnnotations } from './header-annotations.js';
import { encodeHeaderValue, headerText } from './header-value.js';
import { answerInputRequests } from './input-responses.js';
import { validateStructuredContent } from './output-validation.js';
import { SseParser } from './sse.js';
import { startScriptedServer, type Arrival, type ScriptedServer } from './scripted-server.fixture.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The compiled client; REFERENCE_CLIENT_MAIN points elsewhere (e.g. /tmp/refclient-dist/reference/client/main.js). */
const CLIENT = process.env.REFERENCE_CLIENT_MAIN ?? join(REPO, 'dist/reference/client/main.js');
const SERVER = join(REPO, 'dist/reference-server/main.js');
const CLIENT_BUILT = existsSync(CLIENT);
const SERVER_BUILT = existsSync(SERVER);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
type Message = Record<string, any>;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: Message[];
  listed: number[];
}

function runClient(env: Record<string, string>, args: string[] = []): Promise<Run> {
  // NODE_PATH lets a client compiled outside the repo still load ajv.
  const child = spawn(process.execPath, [CLIENT, ...args], {
    env: { ...process.env, NODE_PATH: join(REPO, 'node_modules'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const parsed = stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Message);
      // The call lines; the {"listed": n} lines that follow each listing are counted apart.
      const lines = parsed.filter((line) => !('listed' in line));
      resolve({
        code,
        stdout,
        stderr,
        lines,
        listed: parsed.filter((line) => 'listed' in line).map((line) => line.listed as number),
      });
    });
  });
}

const withDefects = (defects: readonly string[]) => defects.flatMap((d) => ['--defect', d]);

describe('encodeHeaderValue (requirements §3.4)', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['us west 1', 'us west 1'],
    ['', ''],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['line1\r\nline2', '=?base64?bGluZTENCmxpbmUy?='],
    ['\tindented', '=?base64?CWluZGVudGVk?='],
    ['日本語', '=?base64?5pel5pys6Kqe?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ['inner\ttab', `=?base64?${Buffer.from('inner\ttab').toString('base64')}?=`],
    ['=?BASE64?upper?=', '=?BASE64?upper?='],
    ['=?base64?no-suffix', '=?base64?no-suffix'],
  ])('%j → %j', (value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
  });

  it.each([
    [true, 'true'],
    [false, 'false'],
    [42, '42'],
    [-7, '-7'],
    [42.0, '42'],
    [9007199254740991, '9007199254740991'],
    ['x', 'x'],
  ])('type conversion %j → %j', (value, text) => {
    expect(headerText(value)).toBe(text);
  });

  it.each([[1.5], [null], [{}], [[]]])('%j has no header form', (value) => {
    expect(headerText(value)).toBeUndefined();
  });
});

describe('checkHeaderAnnotations', () => {
  const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties,
    ...extra,
  });
  const on = (type: unknown, header: unknown = 'Region') => ({ type, 'x-mcp-header': header });

  it.each([
    ['a string property', object({ region: on('string') }), [['Region', ['region']]]],
    [
      'integer and boolean properties',
      object({ n: on('integer', 'Count'), f: on('boolean', 'Flag') }),
      [
        ['Count', ['n']],
        ['Flag', ['f']],
      ],
    ],
    ['a nested properties chain', object({ a: object({ b: on('string', 'Deep') }) }), [['Deep', ['a', 'b']]]],
    ['every tchar', object({ r: on('string', "!#$%&'*+-.^_`|~09azAZ") }), [["!#$%&'*+-.^_`|~09azAZ", ['r']]]],
    ['a property named x-mcp-header', object({ 'x-mcp-header': { type: 'string' } }), []],
    [
      'the key inside data keywords',
      object({ r: { type: 'object', default: { 'x-mcp-header': 'Nope' }, enum: [{ 'x-mcp-header': 'x' }] } }),
      [],
    ],
  ])('accepts %s', (_, schema, expected) => {
    const report = checkHeaderAnnotations(schema);
    expect(report.problems).toEqual([]);
    expect(report.annotations.map((a) => [a.header, a.path])).toEqual(expected);
  });

  it.each([
    ['an empty value', object({ r: on('string', '') }), /is empty/],
    ['a value with a space', object({ r: on('string', 'My Region') }), /not an RFC 9110 token/],
    ['a value with CR LF', object({ r: on('string', 'Region\r\nX-Injected: 1') }), /control characters/],
    ['a non-ASCII value', object({ r: on('string', 'Régión') }), /not an RFC 9110 token/],
    ['a value that is not a string', object({ r: on('string', 7) }), /not a string/],
    ['case-insensitive duplicates', object({ a: on('string', 'Region'), b: on('string', 'REGION') }), /duplicates/],
    ['a number property', object({ r: on('number') }), /type is "number"/],
    ['an object property', object({ r: on('object') }), /type is "object"/],
    ['a type array', object({ r: on(['string', 'null']) }), /type is \["string","null"\]/],
    ['a missing type', object({ r: { enum: ['a'], 'x-mcp-header': 'Region' } }), /type is missing/],
    ['the root schema', { type: 'object', 'x-mcp-header': 'Root' }, /root/],
    ['items', object({ l: { type: 'array', items: on('string') } }), /not reachable/],
    ['prefixItems', object({ l: { type: 'array', prefixItems: [on('string')] } }), /not reachable/],
    ['anyOf', object({ r: { anyOf: [on('string')] } }), /not reachable/],
    ['oneOf at the root', { type: 'object', oneOf: [object({ r: on('string') })] }, /not reachable/],
    ['allOf', { type: 'object', allOf: [object({ r: on('string') })] }, /not reachable/],
    ['not', object({ r: { type: 'string', not: on('string') } }), /not reachable/],
    ['if/then/else', { type: 'object', if: object({}), then: object({ r: on('string') }) }, /not reachable/],
    [
      '$defs (reached through $ref)',
      object({ r: { $ref: '#/$defs/r' } }, { $defs: { r: on('string') } }),
      /not reachable/,
    ],
    ['additionalProperties', { type: 'object', additionalProperties: on('string') }, /not reachable/],
    ['patternProperties', { type: 'object', patternProperties: { '^r': on('string') } }, /not reachable/],
    ['properties under items', object({ l: { type: 'array', items: object({ r: on('string') }) } }), /not reachable/],
  ])('rejects %s', (_, schema, reason) => {
    const { problems } = checkHeaderAnnotations(schema);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(reason);
  });
});

describe('validateStructuredContent', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };

  it('validates with 2020-12 by default and with a declared draft-07', () => {
    expect(validateStructuredContent(schema, { n: 1 })).toEqual({ ok: true });
    expect(validateStructuredContent(schema, { n: 'x' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/\/n must be integer/),
    });
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', ...schema };
    expect(validateStructuredContent(draft07, { n: 1.5 })).toMatchObject({ ok: false });
  });

  it('takes format as an annotation: a naive date-time passes, a wrong type under the same schema does not', () => {
    const pydantic = {
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time' } },
      required: ['when'],
    };
    expect(validateStructuredContent(pydantic, { when: '2026-01-01T10:00:00' })).toEqual({ ok: true });
    expect(
      validateStructuredContent(
        { $schema: 'http://json-schema.org/draft-07/schema#', ...pydantic },
        { when: 'not a date' },
      ),
    ).toEqual({ ok: true });
    expect(validateStructuredContent(pydantic, { when: 1767261600 })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/\/when must be string/),
    });
  });

  it('never resolves a $ref it does not hold', () => {
    expect(validateStructuredContent({ $ref: 'https://example.com/s.json' }, {})).toEqual({
      ok: false,
      message: 'outputSchema has an unresolved $ref: https://example.com/s.json',
    });
    expect(validateStructuredContent({ $ref: '#/$defs/missing' }, {})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/unresolved \$ref/),
    });
    expect(validateStructuredContent({ $defs: { n: { type: 'integer' } }, $ref: '#/$defs/n' }, 3)).toEqual({
      ok: true,
    });
  });

  it('reports an unsupported dialect', () => {
    expect(validateStructuredContent({ $schema: 'http://json-schema.org/draft-04/schema#' }, {})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/unsupported JSON Schema dialect/),
    });
  });
});

describe('answerInputRequests', () => {
  it('accepts form elicitations with defaults or neutral values and lists no roots', () => {
    const requestedSchema = {
      type: 'object',
      properties: {
        s: { type: 'string' },
        d: { type: 'string', default: 'x' },
        n: { type: 'number' },
        b: { type: 'boolean' },
        e: { type: 'string', oneOf: [{ const: 'a' }] },
      },
    };
    expect(
      answerInputRequests({
        form: { method: 'elicitation/create', params: { message: 'm', requestedSchema } },
        roots: { method: 'roots/list' },
      }),
    ).toEqual({
      ok: true,
      responses: {
        form: { action: 'accept', content: { s: '', d: 'x', n: 0, b: false, e: 'a' } },
        roots: { roots: [] },
      },
    });
  });

  it.each([
    [{ method: 'sampling/createMessage', params: {} }, /"sampling\/createMessage" is not supported/],
    [{ method: 'elicitation/create', params: { mode: 'url', url: 'https://example.com' } }, /mode "url"/],
  ])('gives up on %j', (request, message) => {
    expect(answerInputRequests({ k: request })).toMatchObject({ ok: false, message: expect.stringMatching(message) });
  });
});

describe('SseParser', () => {
  it('joins data lines, skips comments and other fields, and copes with CRLF split across chunks', () => {
    const parser = new SseParser();
    const events = [
      ...parser.push(': keep-alive\r'),
      ...parser.push('\nevent: message\r\ndata: {"a":\r'),
      ...parser.push('\ndata:1}\r\n\r\nid: 3\ndata: last'),
      ...parser.end(),
    ];
    expect(events).toEqual(['{"a":\n1}', 'last']);
    expect(parser.lastEventId).toBe('3');
  });
});

describe.skipIf(!CLIENT_BUILT || !SERVER_BUILT)(
  'clean client against the reference server',
  { concurrent: true },
  () => {
    /** Tool names the reference server lists to a fresh client, read with our own tools/list walk. */
    async function listedNames(url: string): Promise<string[]> {
      const names: string[] = [];
      let cursor: string | undefined;
      for (let id = 1; ; id++) {
        const params: Record<string, unknown> = {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        };
        if (cursor !== undefined) params.cursor = cursor;
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2026-07-28',
            'Mcp-Method': 'tools/list',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params }),
        });
        const { result } = (await response.json()) as {
          result: { tools: Array<{ name: string }>; nextCursor?: string };
        };
        names.push(...result.tools.map((t) => t.name));
        if (result.nextCursor === undefined) return names;
        cursor = result.nextCursor;
      }
    }

    async function withHttpServer<T>(body: (url: string) => Promise<T>): Promise<T> {
      const server = spawn(process.execPath, [SERVER, '--http', '--port', '0'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          server.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            const match = /http:\/\/\S+/.exec(out);
            if (match) resolve(match[0]);
          });
          server.on('exit', () => reject(new Error('the reference server exited')));
        });
        return await body(url);
      } finally {
        server.kill();
      }
    }

    function expectOneLinePerTool(run: Run, names: readonly string[]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.lines.map((line) => line.tool)).toEqual(names);
      for (const line of run.lines) {
        expect(Object.keys(line).sort()).toSatisfy(
          (keys: string[]) => keys.join() === 'result,tool' || keys.join() === 'error,tool',
        );
        if (line.error) expect(typeof line.error.message).toBe('string');
        else expect(typeof line.result).toBe('object');
      }
    }

    it('over Streamable HTTP', async () => {
      const names = await withHttpServer(listedNames);
      expect(names.length).toBeGreaterThan(3);
      await withHttpServer(async (url) => {
        expectOneLinePerTool(await runClient({ MCP_CONFORMANCE_URL: url }, [url]), names);
      });
    });

    it('over stdio', async () => {
      const names = await withHttpServer(listedNames);
      expectOneLinePerTool(
        await runClient({ MCP_CONFORMANCE_SERVER_COMMAND: `"${process.execPath}" "${SERVER}"` }),
        names,
      );
    });

    it('exits 1 when nothing listens', async () => {
      const run = await runClient({ MCP_CONFORMANCE_URL: 'http://127.0.0.1:9/mcp' });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    });
  },
);

describe.skipIf(!CLIENT_BUILT || !SERVER_BUILT)(
  'stdio defects (what the client writes to the reference server)',
  { concurrent: true },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'refclient-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    async function stdinOf(defects: DefectName[]): Promise<{ run: Run; written: Buffer }> {
      const file = join(dir, `${defects.join('+') || 'clean'}.stdin`);
      const run = await runClient(
        { MCP_CONFORMANCE_SERVER_COMMAND: `tee "${file}" | "${process.execPath}" "${SERVER}"` },
        withDefects(defects),
      );
      return { run, written: readFileSync(file) };
    }
    const lines = (written: Buffer) =>
      written
        .toString('latin1')
        .split('\n')
        .filter((l) => l !== '');

    it('clean: every line is a JSON-RPC message, every request with a fresh integer id', async () => {
      const { run, written } = await stdinOf([]);
      expect(run.code).toBe(0);
      const messages = lines(written).map((l) => JSON.parse(l) as Message);
      // The only notification: notifications/cancelled, which ends its listen subscription (the server can change its
      // tools).
      expect(messages.filter((m) => !('id' in m)).map((m) => m.method)).toEqual(['notifications/cancelled']);
      const ids = messages.filter((m) => 'id' in m).map((m) => m.id);
      expect(ids.every((id) => Number.isInteger(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(messages[0]!.method).toBe('server/discover');
    });

    it('stdin-garbage writes "hello server" first', async () => {
      const { run, written } = await stdinOf(['stdin-garbage']);
      expect(run.code).toBe(0);
      expect(lines(written)[0]).toBe('hello server');
    });

    it('invalid-utf8 puts a raw 0xFF byte in the discover line', async () => {
      const { written } = await stdinOf(['invalid-utf8']);
      const first = written.subarray(0, written.indexOf(0x0a));
      expect(first.includes(0xff)).toBe(true);
      expect(written.subarray(first.length + 1).includes(0xff)).toBe(false);
    });

    it('reused-id-in-flight sends two calls under one id and still prints both lines', async () => {
      const { run, written } = await stdinOf(['reused-id-in-flight']);
      const calls = lines(written)
        .map((l) => JSON.parse(l) as Message)
        .filter((m) => m.method === 'tools/call');
      expect(calls[0]!.id).toBe(calls[1]!.id);
      expect(calls[0]!.params.name).not.toBe(calls[1]!.params.name);
      expect(run.code).toBe(0);
      expect(run.lines.map((line) => line.tool)).toEqual(calls.map((call) => call.params.name));
    });
  },
);

describe.skipIf(!CLIENT_BUILT)('against a scripted HTTP server', () => {
  let server: ScriptedServer;
  let clean: Run;
  let cleanArrivals: Arrival[];

  async function run(defects: DefectName[]): Promise<{ run: Run; arrivals: Arrival[] }> {
    const before = server.arrivals.length;
    const result = await runClient({ MCP_CONFORMANCE_URL: server.url }, [...withDefects(defects), server.url]);
    return { run: result, arrivals: server.arrivals.slice(before) };
  }

  beforeAll(async () => {
    server = await startScriptedServer();
    ({ run: clean, arrivals: cleanArrivals } = await run([]));
  });
  afterAll(() => server.close());

  const calls = (arrivals: Arrival[], name?: string) =>
    arrivals.filter((a) => a.body?.method === 'tools/call' && (name === undefined || a.body.params.name === name));
  const lists = (arrivals: Arrival[]) => arrivals.filter((a) => a.body?.method === 'tools/list');
  const lineOf = (r: Run, tool: string) => r.lines.find((line) => line.tool === tool);

  it('walks every page with the cursors verbatim, "" included; lists again at the end (every page has ttlMs 0 or none)', () => {
    expect(lists(cleanArrivals).map((a) => a.body.params.cursor)).toEqual([
      undefined,
      '',
      ' padded ',
      undefined,
      '',
      ' padded ',
    ]);
    expect(clean.listed).toHaveLength(2);
  });

  it('rejects the tool with an unreachable annotation, with a warning naming it', () => {
    expect(clean.lines.map((line) => line.tool)).toEqual([
      'headers',
      'ask',
      'typed',
      'streamed',
      'cut_short',
      'no_result_type',
      'task_result',
      'external_ref',
      'ask_stateless',
    ]);
    expect(clean.stderr).toMatch(/rejecting tool "bad_header": .*not reachable/);
  });

  it('sends the standard headers and one encoded Mcp-Param-* per present, non-null argument', () => {
    const [call] = calls(cleanArrivals, 'headers');
    const h = call!.headers;
    expect(h).toMatchObject({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'headers',
      'mcp-param-region': 'us-west1',
      'mcp-param-greeting': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'mcp-param-literal': '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=',
      'mcp-param-count': '-7',
      'mcp-param-flag': 'false',
      'mcp-param-inner': '=?base64?IHBhZGRlZCA=?=',
    });
    expect(h).not.toHaveProperty('mcp-param-gone');
    expect(h).not.toHaveProperty('mcp-param-absent');
  });

  it('gives every request a fresh integer id and the _meta fields', () => {
    const bodies = cleanArrivals.map((a) => a.body);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(bodies.length);
    for (const body of bodies) {
      expect(Number.isInteger(body.id)).toBe(true);
      const { progressToken, ...meta } = body.params._meta;
      // tools/call asks for progress, each request with a token of its own.
      expect(progressToken === undefined || Number.isInteger(progressToken)).toBe(true);
      expect(meta).toEqual({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, roots: {} },
        'io.modelcontextprotocol/clientInfo': { name: 'mcp-tools-conformance-reference-client', version: '0.1.0' },
      });
    }
  });

  it('answers input_required rounds and echoes requestState verbatim', () => {
    const rounds = calls(cleanArrivals, 'ask').map((a) => a.body.params);
    expect(rounds).toHaveLength(3);
    expect(rounds.map((p) => p.arguments)).toEqual([{ topic: 'x' }, { topic: 'x' }, { topic: 'x' }]);
    expect(rounds[0]).not.toHaveProperty('requestState');
    expect(rounds[1].inputResponses).toEqual({
      form: { action: 'accept', content: { name: '', colour: 'blue', size: 's', age: 0, ok: false } },
      where: { roots: [] },
    });
    expect(rounds[1].requestState).toBe('state-1 ');
    expect(rounds[2]).not.toHaveProperty('inputResponses');
    expect(rounds[2].requestState).toBe('state-2');
    expect(lineOf(clean, 'ask')).toMatchObject({ result: { resultType: 'complete' } });
    expect(calls(cleanArrivals, 'ask_stateless')[1]!.body.params).not.toHaveProperty('requestState');
  });

  it('classifies results', () => {
    expect(lineOf(clean, 'typed')?.error.message).toMatch(/does not match outputSchema/);
    expect(lineOf(clean, 'streamed')).toEqual({ tool: 'streamed', result: { resultType: 'complete', content: [] } });
    expect(lineOf(clean, 'cut_short')?.error.message).toMatch(/without a JSON-RPC response/);
    expect(lineOf(clean, 'no_result_type')).toEqual({ tool: 'no_result_type', result: { content: [] } });
    expect(lineOf(clean, 'task_result')?.error.message).toMatch(/invalid resultType "task"/);
    expect(lineOf(clean, 'external_ref')?.error.message).toMatch(/unresolved \$ref/);
    expect(cleanArrivals.every((a) => a.method === 'POST')).toBe(true);
    expect(clean.code).toBe(0);
  });

  type Probe = (r: { run: Run; arrivals: Arrival[] }) => unknown;
  const header =
    (name: string, tool = 'headers'): Probe =>
    ({ arrivals }) =>
      calls(arrivals, tool)[0]?.headers[name];
  const askRetry =
    (field: string): Probe =>
    ({ arrivals }) =>
      calls(arrivals, 'ask')[1]?.body.params[field];

  /** Per defect, something the clean run does not show. */
  const SYMPTOMS: Partial<Record<DefectName, Probe>> = {
    'no-capabilities-on-pages': ({ arrivals }) =>
      lists(arrivals).map((a) => 'io.modelcontextprotocol/clientCapabilities' in a.body.params._meta),
    'no-client-info': ({ arrivals }) =>
      arrivals.some((a) => 'io.modelcontextprotocol/clientInfo' in a.body.params._meta),
    'fractional-id': ({ arrivals }) => calls(arrivals)[0]!.body.id,
    'reused-id-in-flight': ({ arrivals }) =>
      new Set(calls(arrivals).map((a) => a.body.id)).size === calls(arrivals).length,
    'notification-with-id': ({ arrivals }) =>
      arrivals.find((a) => a.body?.method === 'notifications/cancelled')?.body.id,
    'invalid-utf8': ({ arrivals }) => arrivals[0]!.raw.includes(0xff),
    'json-batch': ({ arrivals }) => Array.isArray(arrivals[0]!.body),
    'sends-response': ({ arrivals }) => arrivals.find((a) => a.body?.id === 'reference-client-stray')?.body,
    'accept-json-only': ({ arrivals }) => arrivals[0]!.headers.accept,
    'no-protocol-version-header': ({ arrivals }) => lists(arrivals).map((a) => a.headers['mcp-protocol-version']),
    'protocol-version-header-mismatch': header('mcp-protocol-version'),
    'no-mcp-method-header': ({ arrivals }) => lists(arrivals).map((a) => a.headers['mcp-method']),
    'x-mcp-header-ignored': header('mcp-param-region'),
    'null-param-header': header('mcp-param-gone'),
    'percent-encoded-params': header('mcp-param-greeting'),
    'sentinel-not-encoded': header('mcp-param-literal'),
    'boolean-capitalised': header('mcp-param-flag'),
    'keeps-invalid-x-mcp-header-tools': ({ run }) => run.lines.map((line) => line.tool),
    'retry-same-id': ({ arrivals }) => calls(arrivals, 'ask')[0]!.body.id === calls(arrivals, 'ask')[1]!.body.id,
    'requeststate-truncated': askRetry('requestState'),
    'spurious-requeststate': ({ arrivals }) => calls(arrivals, 'ask_stateless')[1]?.body.params.requestState,
    'missing-input-response': askRetry('inputResponses'),
    'retry-changes-arguments': askRetry('arguments'),
    'cursor-trimmed': ({ arrivals }) => lists(arrivals).map((a) => a.body.params.cursor),
    'empty-cursor-ends': ({ arrivals }) => lists(arrivals).length,
    'first-page-only': ({ arrivals }) => lists(arrivals).map((a) => a.body.params.cursor),
    'resumes-cut-stream': ({ arrivals }) =>
      arrivals.filter((a) => a.method === 'GET').map((a) => a.headers['last-event-id']),
    'fetches-network-ref': ({ arrivals }) => arrivals.filter((a) => a.method === 'GET').length,
    'accepts-unknown-resulttype': ({ run }) => lineOf(run, 'task_result'),
    'no-sse-support': ({ run }) => lineOf(run, 'streamed'),
    'no-output-validation': ({ run }) => lineOf(run, 'typed'),
  };

  // Every defect, with the check that catches it alone, is proven in test/client-defects.test.ts; these show the raw
  // symptom of the ones this fixture server can provoke.

  // Concurrently, each against a scripted server of its own, so that what arrives is that run's alone.
  it.concurrent.each(Object.entries(SYMPTOMS))('%s shows its symptom', async (name, probe) => {
    const own = await startScriptedServer();
    let result: { run: Run; arrivals: Arrival[] };
    try {
      const ran = await runClient({ MCP_CONFORMANCE_URL: own.url }, [...withDefects([name]), own.url]);
      result = { run: ran, arrivals: own.arrivals };
    } finally {
      await own.close();
    }
    expect(probe(result)).not.toEqual(probe({ run: clean, arrivals: cleanArrivals }));
    if (name === 'cursor-trimmed') {
      // The scripted server rejects the trimmed cursor, so the listing cannot complete.
      expect(result.run.code).toBe(1);
      expect(result.run.stderr).toMatch(/Invalid cursor/);
      return;
    }
    expect(result.run.code, result.run.stderr).toBe(0);
    // Ending the listing after the first page leaves one callable tool (its other one has an invalid annotation).
    const expectedTools =
      name === 'keeps-invalid-x-mcp-header-tools'
        ? clean.lines.length + 1
        : name === 'empty-cursor-ends' || name === 'first-page-only'
          ? 1
          : clean.lines.length;
    expect(result.run.lines).toHaveLength(expectedTools);
  });
});
