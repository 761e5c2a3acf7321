import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonRpcId } from '../../../src/core/jsonrpc.js';
import { describe, expect, it } from 'vitest';
import { handleMessage } from '../handler.js';
import type { HandlerContext } from '../reply.js';
import { meta, rpc, standardHeaders, stdioContext } from '../test-support.js';
import type { DefectDefinition, DefectName } from './index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
export type Message = Record<string, any>;

export function exchange(ctx: HandlerContext, message: unknown): Message[] {
  const reply = handleMessage(message, ctx);
  if (reply.kind !== 'send') throw new Error(`expected messages, got ${reply.kind}`);
  return reply.messages as Message[];
}

export const discover = (ctx: HandlerContext): Message => exchange(ctx, rpc('d', 'server/discover')).at(-1)!;

/** Every page of tools/list, following nextCursor at most `limit` times. */
export function pages(ctx: HandlerContext, limit = 3): Message[] {
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

export const callResult = (ctx: HandlerContext, name: string, args: Record<string, unknown>): Message =>
  exchange(ctx, rpc(1, 'tools/call', { name, arguments: args })).at(-1)!;

export const lastPageNames = (ctx: HandlerContext): string[] =>
  pages(ctx, 5)
    .at(-1)!
    .result.tools.map((tool: Message) => tool.name);

export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

export const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

export const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The answer and its HTTP status, whatever the transport. */
export function answer(ctx: HandlerContext, message: unknown): { status: number; response: Message } {
  const reply = handleMessage(message, ctx);
  if (reply.kind !== 'send') throw new Error(`expected messages, got ${reply.kind}`);
  return { status: reply.status, response: reply.messages.at(-1) as Message };
}

/**
 * Answers `message` as the HTTP transport would, with the standard headers for it changed by `change`
 * (lower-case names; undefined drops the header).
 */
export function overHttp(ctx: HandlerContext, message: Message, change: Record<string, string | undefined> = {}) {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(standardHeaders(message as { method: string })))
    headers[name.toLowerCase()] = value;
  return answer({ ...ctx, transport: 'http', headers: { ...headers, ...change } }, message);
}

export const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

export const searchInRegion = (id: number) =>
  rpc(id, 'tools/call', { name: 'search_docs', arguments: { query: 'q', region: 'us-west1' } }) as Message;

export const withVersion = (id: number, method: string, version: unknown) =>
  ({ jsonrpc: '2.0', id, method, params: { _meta: meta({}, { [VERSION_KEY]: version }) } }) as Message;

/** Requests whose _meta is missing or malformed, each of which a conforming server rejects with -32602. */
export const MALFORMED_META: [string, Message][] = [
  ['no params', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  ['no _meta', { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }],
  [
    'no protocolVersion',
    { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { [CAPABILITIES_KEY]: {} } } },
  ],
  [
    'no clientCapabilities',
    { jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta: { [VERSION_KEY]: '2026-07-28' } } },
  ],
  ['numeric protocolVersion', withVersion(5, 'tools/list', 20260728)],
  [
    'clientCapabilities a string',
    { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: meta({}, { [CAPABILITIES_KEY]: 'none' }) } },
  ],
];

export const names = (page: Message): string[] => (page.result.tools as Message[]).map((tool) => tool.name as string);

export const sorted = (items: string[]): string[] => [...items].sort();

/** Every tool the listing shows, all pages. */
export const listed = (ctx: HandlerContext): Message[] =>
  pages(ctx, 10).flatMap((page) => page.result.tools as Message[]);

export const extra = (ctx: HandlerContext): Message => listed(ctx).at(-1)!;

export const header = (ctx: HandlerContext, property: string): unknown =>
  extra(ctx).inputSchema.properties[property]['x-mcp-header'];

/** Opens subscriptions/listen; returns the acknowledgement and every message the stream gets afterwards. */
export function listen(
  ctx: HandlerContext,
  id: JsonRpcId,
  notifications: Record<string, unknown>,
): { ack?: Message; stream: Message[] } {
  const reply = handleMessage(rpc(id, 'subscriptions/listen', { notifications }), ctx);
  if (reply.kind !== 'listen') throw new Error(`expected a listen stream, got ${reply.kind}`);
  const stream: Message[] = [];
  reply.open((message) => stream.push(message as Message));
  return { ack: reply.ack as Message | undefined, stream };
}

/** Runs `work` with $TMPDIR (where the annotation defects write) pointing at a fresh folder, removed afterwards. */
export function inScratch(work: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-effects-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    work(dir);
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  }
}

export const annotationsOf = (ctx: HandlerContext, name: string): Message =>
  listed(ctx).find((tool) => tool.name === name)!.annotations;

export const lineCount = (path: string): number => readFileSync(path, 'utf8').trim().split('\n').length;

export const toggleBeta = (ctx: HandlerContext) =>
  exchange(ctx, rpc(90, 'tools/call', { name: 'toggle_beta_tools', arguments: {} })).at(-1)!;

export const SUBSCRIPTION_KEY = 'io.modelcontextprotocol/subscriptionId';

export const ACCEPTED = { confirm: { action: 'accept', content: { ok: true } } };

/** A confirm_action call declaring form-mode elicitation only, with `extra` params (requestState, inputResponses). */
export function confirmCall(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const caps = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };
  return { name: 'confirm_action', arguments: { action: 'x' }, _meta: caps, ...extra };
}

/**
 * The deviation tests of one area module: each defect's deviation shows in a server started with it alone (as its
 * revision, if it has one), and every defect of the module has one.
 */
/** What a defect breaks, as the tests name it: the check id, or what it is instead. */
const breaksOf = (defect: DefectDefinition): string =>
  defect.breaks ?? (defect.chaos ? 'chaos' : 'a conforming variant');

export function showsEachDeviation(
  defects: readonly DefectDefinition[],
  deviations: Record<string, (ctx: HandlerContext) => void>,
): void {
  describe('each defect shows its deviation', () => {
    it('has a deviation test for every defect of the module', () => {
      expect(Object.keys(deviations).sort()).toEqual(defects.map((defect) => defect.name).sort());
    });
    it.each(defects.map((defect) => [defect.name as DefectName, breaksOf(defect), defect.revision] as const))(
      '%s (%s)',
      (name, _breaks, revision) => {
        deviations[name]!(stdioContext([name], revision));
      },
    );
  });
}
