import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';
import { handleMessage } from './handler.js';
import type { HandlerContext } from './reply.js';
import {
  bigPage,
  FAILING_TOOL_ERROR,
  failingTools,
  generatedTool,
  scaledTools,
  SCALE_PAGE_SIZE,
  type ListingScale,
} from './scale-tools.js';
import { rpc, stdioContext } from './test-support.js';
import { TOOL_DEFINITIONS } from './tools.js';

type Page = { tools: Record<string, unknown>[]; nextCursor?: string };

function scaledContext(scale: ListingScale): HandlerContext {
  return { ...stdioContext(), scale };
}

/** Every page of the listing, and the length of each response's JSON text. */
function walk(ctx: HandlerContext): { pages: Page[]; sizes: number[] } {
  const pages: Page[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const reply = handleMessage(rpc(`list-${pages.length}`, 'tools/list', cursor === undefined ? {} : { cursor }), ctx);
    if (reply.kind !== 'send') throw new Error(`expected a response, got ${reply.kind}`);
    const response = reply.messages[reply.messages.length - 1] as { result: Page };
    sizes.push(JSON.stringify(response).length);
    pages.push(response.result);
    cursor = response.result.nextCursor;
  } while (cursor !== undefined && pages.length < 1000);
  return { pages, sizes };
}

describe('--scale-tools', () => {
  const { pages } = walk(scaledContext(scaledTools(10_000)));
  const tools = pages.flatMap((page) => page.tools);

  it('lists the reference tools and then 10,000 generated ones, 100 per page', () => {
    expect(tools).toHaveLength(TOOL_DEFINITIONS.length + 10_000);
    expect(pages).toHaveLength(Math.ceil(tools.length / SCALE_PAGE_SIZE));
    expect(pages.every((page) => page.tools.length <= SCALE_PAGE_SIZE)).toBe(true);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
    expect(tools.slice(0, TOOL_DEFINITIONS.length).map((tool) => tool.name)).toEqual(
      TOOL_DEFINITIONS.map((tool) => tool.name),
    );
  });

  it('varies the schemas, with one large input schema in every hundred, all valid 2020-12 object schemas', () => {
    const generated = tools.slice(TOOL_DEFINITIONS.length);
    const inputs = generated.map((tool) => JSON.stringify(tool.inputSchema));
    expect(new Set(inputs).size).toBe(10_000);
    expect(inputs.filter((text) => text.length > 10_000)).toHaveLength(100);
    expect(generated.filter((tool) => tool.outputSchema !== undefined).length).toBeGreaterThan(3_000);
    const ajv = new Ajv2020();
    for (const tool of generated) {
      expect(ajv.validateSchema(tool.inputSchema as object)).toBe(true);
      expect((tool.inputSchema as { type?: unknown }).type).toBe('object');
      if (tool.outputSchema !== undefined) expect(ajv.validateSchema(tool.outputSchema as object)).toBe(true);
    }
  });

  it('marks generated tools as not read-only, so an audit never calls them (tools/call does not know them)', () => {
    expect(generatedTool(7).annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
    const reply = handleMessage(
      rpc('c', 'tools/call', { name: 'scale_00007', arguments: {} }),
      scaledContext(scaledTools(10)),
    );
    expect(reply.kind === 'send' && JSON.stringify(reply.messages)).toContain('"error"');
  });
});

describe('--big-page-mb', () => {
  it('lists the reference tools and generated ones on a single page of at least 5 MB', () => {
    const { pages, sizes } = walk(scaledContext(bigPage(5)));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.nextCursor).toBeUndefined();
    expect(sizes[0]).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    expect(sizes[0]).toBeLessThan(6 * 1024 * 1024);
    expect(new Set(pages[0]!.tools.map((tool) => tool.name)).size).toBe(pages[0]!.tools.length);
  });
});

describe('--failing-tools', () => {
  const ctx = scaledContext(failingTools(25));
  const tools = walk(ctx).pages.flatMap((page) => page.tools);

  it('lists exactly the generated tools, read-only, instead of the reference ones', () => {
    expect(tools.map((tool) => tool.name)).toEqual(
      Array.from({ length: 25 }, (_, i) => `failing_${String(i).padStart(2, '0')}`),
    );
    expect(tools.every((tool) => (tool.annotations as { readOnlyHint?: boolean }).readOnlyHint === true)).toBe(true);
    expect(tools.map((tool) => tool.name)).not.toContain(TOOL_DEFINITIONS[0]!.name);
  });

  it('answers every call of one with a tool execution error, whatever the arguments; the reference tools are unknown', () => {
    for (const args of [{}, { mode: 'x' }, []]) {
      const reply = handleMessage(rpc('c', 'tools/call', { name: 'failing_03', arguments: args }), ctx);
      const result =
        reply.kind === 'send'
          ? (reply.messages[reply.messages.length - 1] as { result?: Record<string, unknown> }).result
          : undefined;
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: FAILING_TOOL_ERROR }] });
    }
    const reference = handleMessage(rpc('c', 'tools/call', { name: 'failing_25', arguments: {} }), ctx);
    expect(reference.kind === 'send' && JSON.stringify(reference.messages)).toContain('"error"');
  });
});

describe('scale flags', () => {
  it('are parsed, bounded and exclusive', () => {
    expect(parseCliArgs(['--scale-tools', '10000'])).toMatchObject({
      kind: 'serve',
      transport: 'stdio',
      scaleTools: 10_000,
    });
    expect(parseCliArgs(['--http', '--big-page-mb=5'])).toMatchObject({
      kind: 'serve',
      transport: 'http',
      bigPageMb: 5,
    });
    expect(parseCliArgs(['--scale-tools', '0']).kind).toBe('error');
    expect(parseCliArgs(['--scale-tools', '100001']).kind).toBe('error');
    expect(parseCliArgs(['--big-page-mb', '16']).kind).toBe('error');
    expect(parseCliArgs(['--failing-tools', '25', '--error-latency-ms', '500'])).toMatchObject({
      kind: 'serve',
      failingTools: 25,
      latency: { errorLatencyMs: 500 },
    });
    expect(parseCliArgs(['--failing-tools', '1001']).kind).toBe('error');
    const exclusive = { kind: 'error', message: '--scale-tools, --big-page-mb and --failing-tools are exclusive' };
    expect(parseCliArgs(['--scale-tools', '10', '--big-page-mb', '1'])).toEqual(exclusive);
    expect(parseCliArgs(['--failing-tools', '10', '--scale-tools', '1'])).toEqual(exclusive);
  });
});
