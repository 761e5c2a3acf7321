import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EffectsLog, FileEffect, RecordedCall } from '../../src/model/effects.js';
import type { Exchange } from '../../src/model/exchange.js';
import type { CheckContext } from '../../src/runner/context.js';
import { handleMessage } from '../../reference/server/handler.js';
import type { DefectName } from '../../reference/server/defects/index.js';
import { keepNotesFile } from '../../reference/server/defects/effect-files.js';
import { rpc, stdioContext } from '../../reference/server/test-support.js';
import { sampleArguments } from '../../src/schema/arguments/index.js';
import { ANNOTATION_HONESTY_CHECKS } from './annotation-honesty.js';

/**
 * The reference server's annotation defects judged by the three checks, without the sandbox: its handler answers in
 * process, $TMPDIR is a scratch folder, and each call's effects are what changed there while it ran.
 */
let scratch = '';
let previous: string | undefined;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'mtc-effects-'));
  previous = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
});

afterEach(() => {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  rmSync(scratch, { recursive: true, force: true });
});

type Snapshot = Map<string, { size: number; digest: string }>;

function snapshot(): Snapshot {
  return new Map(
    readdirSync(scratch).map((name) => {
      const bytes = readFileSync(join(scratch, name));
      return [name, { size: bytes.length, digest: createHash('sha256').update(bytes).digest('hex') }];
    }),
  );
}

function changes(before: Snapshot, after: Snapshot): FileEffect[] {
  const effect = (path: string, kind: FileEffect['kind'], size: number): FileEffect => ({
    root: '$TMPDIR',
    path,
    kind,
    type: 'file',
    size,
  });
  const out: FileEffect[] = [];
  for (const [path, now] of after) {
    const then = before.get(path);
    if (!then) out.push(effect(path, 'created', now.size));
    else if (then.digest !== now.digest) out.push(effect(path, 'modified', now.size));
  }
  for (const [path, then] of before) if (!after.has(path)) out.push(effect(path, 'deleted', then.size));
  return out;
}

/** A sandboxed audit of the reference server in miniature: every listed tool called once, then the three checks. */
async function audit(defects: DefectName[]): Promise<{ id: string; status: string; tool?: string }[]> {
  const server = stdioContext(defects);
  keepNotesFile(server.defects);
  let seq = 0;
  const send = (method: string, params: Record<string, unknown>): Exchange => {
    seq += 1;
    const request = rpc(seq, method, params);
    const reply = handleMessage(request, server);
    const response = reply.kind === 'send' ? reply.messages.at(-1) : undefined;
    return { seq, sentAt: '', durationMs: 0, request, response, notifications: [] };
  };
  const pages: { result: Record<string, unknown>; exchange: Exchange }[] = [];
  let cursor: unknown;
  do {
    const exchange = send('tools/list', cursor === undefined ? {} : { cursor });
    const result = (exchange.response as { result: Record<string, unknown> }).result;
    pages.push({ result, exchange });
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  const tools = pages.flatMap((page) => page.result.tools as Record<string, unknown>[]);
  const recorded: RecordedCall[] = [];
  const callTool = async (name: string, args: unknown): Promise<Exchange> => {
    const before = snapshot();
    const exchange = send('tools/call', { name, arguments: args });
    recorded.push({ tool: name, arguments: args, exchange, effects: changes(before, snapshot()), after: [] });
    return exchange;
  };
  const effects: EffectsLog = {
    calls: () => [...recorded],
    of: (exchange) => recorded.find((r) => r.exchange === exchange),
  };
  const ctx = {
    wire: '2026-07-28',
    effects,
    tools: async () => ({ pages, tools }),
    mayCall: () => true,
    timedOutCall: () => undefined,
    callTool,
  };
  for (const tool of tools) {
    const sample = sampleArguments(tool.inputSchema);
    if (sample.ok) await callTool(String(tool.name), sample.value);
  }
  const results = [];
  for (const check of ANNOTATION_HONESTY_CHECKS) {
    const outcomes = await check.run(ctx as unknown as CheckContext);
    if (!Array.isArray(outcomes)) throw new Error(`${check.id} is not pending`);
    results.push(...outcomes.map((o) => ({ id: check.id, status: o.status, ...(o.tool ? { tool: o.tool } : {}) })));
  }
  return results;
}

const findings = (results: Awaited<ReturnType<typeof audit>>) => results.filter((r) => r.status === 'fail');

describe('the reference server judged from its file effects', () => {
  it('trips none of the three checks when clean: it writes no file', async () => {
    const results = await audit([]);
    expect(findings(results)).toEqual([]);
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['tools.annotations.read-only-honest', 'pass'],
      ['tools.annotations.destructive-honest', 'pass'],
      ['tools.annotations.idempotent-honest', 'skip'],
    ]);
  });

  it.each([
    ['read-only-writes', 'tools.annotations.read-only-honest', 'search_docs'],
    ['non-destructive-deletes', 'tools.annotations.destructive-honest', 'create_note'],
    ['idempotent-appends', 'tools.annotations.idempotent-honest', 'delete_note'],
  ] as const)('%s is caught by %s alone, on %s', async (defect, id, tool) => {
    expect(findings(await audit([defect]))).toEqual([{ id, status: 'fail', tool }]);
  });
});
