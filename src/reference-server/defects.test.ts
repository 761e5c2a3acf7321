import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';
import { DEFECTS, formatDefectList, type DefectName } from './defects.js';
import { handleMessage } from './handler.js';
import type { HandlerContext } from './reply.js';
import { rpc, stdioContext } from './test-support.js';

type Message = Record<string, any>;

function exchange(ctx: HandlerContext, message: unknown): Message[] {
  const reply = handleMessage(message, ctx);
  if (reply.kind !== 'send') throw new Error(`expected messages, got ${reply.kind}`);
  return reply.messages as Message[];
}

const discover = (ctx: HandlerContext): Message => exchange(ctx, rpc('d', 'server/discover')).at(-1)!;

/** Every page of tools/list, following nextCursor at most `limit` times. */
function pages(ctx: HandlerContext, limit = 3): Message[] {
  const results: Message[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < limit; i += 1) {
    const response = exchange(ctx, rpc(`l${i}`, 'tools/list', cursor === undefined ? {} : { cursor })).at(-1)!;
    results.push(response);
    cursor = response.result?.nextCursor;
    if (cursor === undefined) break;
  }
  return results;
}

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** Every tool the listing shows, all pages. */
const listed = (ctx: HandlerContext): Message[] => pages(ctx, 10).flatMap((page) => page.result.tools as Message[]);
const extra = (ctx: HandlerContext): Message => listed(ctx).at(-1)!;
const header = (ctx: HandlerContext, property: string): unknown => extra(ctx).inputSchema.properties[property]['x-mcp-header'];

/** The observable deviation of each defect, checked through the transport-independent handler. */
const DEVIATIONS: Record<DefectName, (ctx: HandlerContext) => void> = {
  'no-discover': (ctx) => {
    expect(discover(ctx).error.code).toBe(-32601);
    expect(exchange(ctx, rpc(1, 'initialize')).at(-1)!.error.code).toBe(-32601);
    expect(pages(ctx)[0]!.result.tools).toHaveLength(4);
  },
  'supported-versions-missing': (ctx) => {
    expect(discover(ctx).result).not.toHaveProperty('supportedVersions');
    expect(discover(ctx).result.resultType).toBe('complete');
  },
  'no-server-info': (ctx) => {
    expect(discover(ctx).result).not.toHaveProperty('_meta');
    expect(pages(ctx)[0]!.result._meta[SERVER_INFO_KEY]).toBeDefined();
  },
  'no-server-info-on-list': (ctx) => {
    for (const page of pages(ctx)) expect(page.result).not.toHaveProperty('_meta');
    expect(discover(ctx).result._meta[SERVER_INFO_KEY]).toBeDefined();
  },
  'no-tools-capability': (ctx) => {
    expect(discover(ctx).result.capabilities).toEqual({});
    expect(pages(ctx)[0]!.result.tools).toHaveLength(4);
  },
  'list-changed-not-boolean': (ctx) => expect(discover(ctx).result.capabilities.tools.listChanged).toBe('yes'),
  'no-result-type': (ctx) => {
    const [first, second, third] = pages(ctx);
    expect(first!.result.resultType).toBe('complete');
    expect(second!.result).not.toHaveProperty('resultType');
    expect(third!.result.resultType).toBe('complete');
  },
  'unknown-result-type': (ctx) => expect(discover(ctx).result.resultType).toBe('ok'),
  'no-cache-hints': (ctx) => {
    const all = pages(ctx);
    expect(all[0]!.result).toMatchObject({ ttlMs: 60000, cacheScope: 'public' });
    expect(all[2]!.result).not.toHaveProperty('ttlMs');
    expect(all[2]!.result).not.toHaveProperty('cacheScope');
  },
  'negative-ttl': (ctx) => expect(discover(ctx).result.ttlMs).toBe(-1),
  'mixed-cache-scope': (ctx) => expect(pages(ctx).map((page) => page.result.cacheScope)).toEqual(['public', 'private', 'private']),
  'tools-not-array': (ctx) => {
    const all = pages(ctx);
    expect(all[1]!.result.tools).toEqual({});
    expect(all).toHaveLength(3);
  },
  'cursor-loop': (ctx) => {
    const all = pages(ctx, 5);
    expect(all).toHaveLength(5);
    expect(all[2]!.result.nextCursor).toBe(all[0]!.result.nextCursor);
    expect(all[3]!.result.tools).toEqual(all[1]!.result.tools);
  },
  'duplicate-tool': (ctx) => {
    const all = pages(ctx);
    const last = all[2]!.result.tools as Message[];
    expect(last.at(-1)).toEqual(all[0]!.result.tools[0]);
  },
  'bad-jsonrpc-version': (ctx) => {
    expect(pages(ctx).map((page) => page.jsonrpc)).toEqual(['1.0', '1.0', '1.0']);
    expect(discover(ctx).jsonrpc).toBe('2.0');
  },
  'stdout-noise': (ctx) => {
    // Visible only on the stdio transport (see stdio.test.ts); the handler itself stays clean.
    expect(discover(ctx).result.resultType).toBe('complete');
  },
  'server-request': (ctx) => {
    expect(exchange(ctx, rpc(1, 'tools/list'))[0]).toEqual({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
    expect(exchange(ctx, rpc(2, 'tools/list'))).toHaveLength(1);
  },
  'bad-instructions': (ctx) => expect(discover(ctx).result.instructions).toBe(42),
  'tool-name-too-long': (ctx) => expect(extra(ctx).name).toHaveLength(129),
  'tool-name-with-space': (ctx) => expect(extra(ctx).name).toBe('get forecast'),
  'tool-title-not-string': (ctx) => expect(listed(ctx)[0]!.title).toBe(42),
  'tool-without-description': (ctx) => expect(listed(ctx)[1]).not.toHaveProperty('description'),
  'input-schema-not-object': (ctx) => expect(extra(ctx).inputSchema).toEqual({ type: 'string' }),
  'annotation-not-boolean': (ctx) => expect(listed(ctx)[0]!.annotations.readOnlyHint).toBe('yes'),
  'icon-sizes-not-array': (ctx) => expect(listed(ctx)[0]!.icons[0].sizes).toBe('48x48'),
  'icon-http-scheme': (ctx) => expect(listed(ctx)[0]!.icons[0].src).toMatch(/^http:/),
  'invalid-input-schema': (ctx) => expect(extra(ctx).inputSchema.properties.a.type).toBe('strng'),
  'invalid-output-schema': (ctx) => expect(extra(ctx).outputSchema.required).toBe('temperature'),
  'draft-07-schema': (ctx) => expect(extra(ctx).inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#'),
  'dangling-ref': (ctx) => expect(extra(ctx).inputSchema.properties.a.$ref).toBe('#/$defs/missing'),
  'external-ref': (ctx) => expect(extra(ctx).inputSchema.properties.a.$ref).toMatch(/^https:/),
  'xmcp-empty': (ctx) => expect(header(ctx, 'region')).toBe(''),
  'xmcp-not-token': (ctx) => expect(header(ctx, 'region')).toBe('My Region'),
  'xmcp-control-char': (ctx) => expect(header(ctx, 'region')).toMatch(/\r\n/),
  'xmcp-duplicate': (ctx) => expect([header(ctx, 'region'), header(ctx, 'zone')]).toEqual(['Region', 'REGION']),
  'xmcp-number': (ctx) => expect(extra(ctx).inputSchema.properties.ratio.type).toBe('number'),
  'xmcp-unsafe-integer': (ctx) => expect(extra(ctx).inputSchema.properties.shard.maximum).toBe(2 ** 60),
  'xmcp-unreachable': (ctx) => expect(extra(ctx).inputSchema.properties.tags.items['x-mcp-header']).toBe('Tag'),
  'xmcp-sensitive': (ctx) => expect(header(ctx, 'api_key')).toBe('Api-Key'),
  'hang-on-list': (ctx) => expect(handleMessage(rpc(1, 'tools/list'), ctx)).toEqual({ kind: 'hang' }),
  'exit-after-discover': (ctx) => {
    expect(handleMessage(rpc(1, 'server/discover'), ctx)).toMatchObject({ kind: 'send', exitCode: 1 });
    expect(handleMessage(rpc(2, 'tools/list'), ctx)).not.toHaveProperty('exitCode');
  },
  'garbage-on-list': (ctx) => expect(handleMessage(rpc(1, 'tools/list'), ctx)).toEqual({ kind: 'raw', text: 'this is not json' }),
  'wrong-id-on-list': (ctx) => {
    const response = exchange(ctx, rpc(7, 'tools/list')).at(-1)!;
    expect(response.id).not.toBe(7);
    expect(response.result.tools).toHaveLength(4);
  },
};

describe('defect catalogue', () => {
  it('has a deviation test for every defect, and unique names', () => {
    expect(Object.keys(DEVIATIONS).sort()).toEqual(DEFECTS.map((defect) => defect.name).sort());
    expect(new Set(DEFECTS.map((defect) => defect.name)).size).toBe(DEFECTS.length);
  });

  it('names a check for every defect except chaos behaviours', () => {
    for (const defect of DEFECTS) {
      expect(defect.breaks === null, defect.name).toBe(defect.chaos === true);
    }
  });

  it('lists NAME<TAB>CHECK-ID<TAB>description for every defect', () => {
    const lines = formatDefectList().split('\n');
    expect(lines).toHaveLength(DEFECTS.length);
    for (const [index, defect] of DEFECTS.entries()) {
      expect(lines[index]!.split('\t')).toEqual([defect.name, defect.breaks ?? '-', defect.description]);
    }
  });
});

describe('each defect shows its deviation', () => {
  it.each(DEFECTS.map((defect) => defect.name))('%s', (name) => {
    DEVIATIONS[name](stdioContext([name]));
  });
});

describe('clean behaviour where defects act', () => {
  it('has none of the deviations without defects', () => {
    const ctx = stdioContext();
    const result = discover(ctx).result;
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 60000, instructions: expect.any(String), capabilities: { tools: { listChanged: false } } });
    const all = pages(ctx, 5);
    expect(all).toHaveLength(3);
    expect(all.every((page) => page.jsonrpc === '2.0' && page.id.startsWith('l'))).toBe(true);
    expect(exchange(ctx, rpc(1, 'tools/list'))).toHaveLength(1);
  });
});

describe('command line parsing', () => {
  it('collects repeated defects', () => {
    expect(parseCliArgs(['--http', '--port', '8123', '--defect', 'no-discover', '--defect=negative-ttl'])).toEqual({
      kind: 'serve',
      transport: 'http',
      port: 8123,
      sse: false,
      defects: new Set(['no-discover', 'negative-ttl']),
    });
  });

  it.each([
    [['--defect', 'no-such-defect']],
    [['--defect']],
    [['--http', '--defect', 'stdout-noise']],
    [['--sse']],
    [['--http', '--port', 'abc']],
    [['--verbose']],
  ])('rejects %j', (argv) => {
    expect(parseCliArgs(argv).kind).toBe('error');
  });
});
