import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SpecSentence } from '../../src/model/check.js';
import type { Exchange } from '../../src/model/exchange.js';
import type { EffectsLog, FileEffect, RecordedCall } from '../../src/model/effects.js';
import { REVISIONS, type Revision } from '../../src/core/revision.js';
import type { CheckContext } from '../../src/runner/context.js';
import { toResult } from '../../src/runner/runner.js';
import { sentenceProblem, specDir } from '../../test/helpers/spec-text.js';
import {
  ANNOTATION_HONESTY_CHECKS,
  destructiveHonest,
  idempotentHonest,
  readOnlyHonest,
} from './annotation-honesty.js';

const file = (path: string, kind: FileEffect['kind'], size = 12): FileEffect => ({
  root: '$TMPDIR',
  path,
  kind,
  type: 'file',
  size,
});

/** What a fake tool changes on its n-th call (0-based), and whether it answers isError. */
interface FakeTool {
  annotations?: Record<string, unknown>;
  effects?: (n: number) => FileEffect[];
  isError?: boolean;
}

/** A sandboxed audit's context: the listed tools, the calls recorded so far (`earlier`: tool names), and callTool. */
function sandboxed(tools: Record<string, FakeTool>, earlier: string[] = [], late: Record<string, FileEffect[]> = {}) {
  const recorded: RecordedCall[] = [];
  const counts = new Map<string, number>();
  let seq = 0;
  const call = (name: string, args: unknown): Exchange => {
    const tool = tools[name]!;
    const n = counts.get(name) ?? 0;
    counts.set(name, n + 1);
    seq += 1;
    const result = { content: [{ type: 'text', text: 'ok' }], ...(tool.isError ? { isError: true } : {}) };
    const exchange: Exchange = {
      seq,
      sentAt: '',
      durationMs: 0,
      request: { jsonrpc: '2.0', id: seq, method: 'tools/call', params: { name, arguments: args } },
      response: { jsonrpc: '2.0', id: seq, result },
      notifications: [],
    };
    recorded.push({ tool: name, arguments: args, exchange, effects: tool.effects?.(n) ?? [], after: late[name] ?? [] });
    return exchange;
  };
  for (const name of earlier) call(name, { text: `first ${name}` });
  const listed = Object.entries(tools).map(([name, t]) => ({
    name,
    inputSchema: { type: 'object' },
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
  const effects: EffectsLog = {
    calls: () => [...recorded],
    of: (exchange) => recorded.find((r) => r.exchange === exchange),
  };
  const sent: { name: string; args: unknown }[] = [];
  const ctx = {
    wire: '2025-11-25',
    effects,
    tools: async () => ({ pages: [{ result: { tools: listed }, exchange: { seq: 0 } }], tools: listed }),
    mayCall: () => true,
    timedOutCall: () => undefined,
    notCalledReason: () => 'not allowed',
    callTool: async (name: string, args: unknown) => {
      sent.push({ name, args });
      return call(name, args);
    },
  };
  return Object.assign(ctx as unknown as CheckContext, { sent });
}

const NOT_SANDBOXED = { status: 'skip', message: 'file effects are recorded only in a sandboxed audit (--sandbox)' };
const passing = (message: RegExp) =>
  expect.objectContaining({ status: 'pass', message: expect.stringMatching(message) });
const skipping = (message: string) =>
  expect.objectContaining({ status: 'skip', message: expect.stringContaining(message) });

const READ_ONLY = { readOnlyHint: true };
const ADDITIVE = { readOnlyHint: false, destructiveHint: false };
const IDEMPOTENT = { readOnlyHint: false, idempotentHint: true };
const writes =
  (path: string, kind: FileEffect['kind'] = 'created') =>
  () => [file(path, kind)];

describe('tools.annotations.read-only-honest', () => {
  it('warns, labelled descriptive, on a read-only tool whose call wrote a file: the tool, the change, the call and why', async () => {
    const ctx = sandboxed({ lookup: { annotations: READ_ONLY, effects: writes('cache/lookup.json') } }, [
      'lookup',
      'lookup',
    ]);
    const [outcome, ...rest] = await readOnlyHonest.run(ctx);
    expect(rest).toEqual([]);
    const result = toResult(readOnlyHonest, outcome!, 0, '2025-11-25');
    expect(result).toMatchObject({ status: 'warn', keywordText: 'descriptive', tool: 'lookup' });
    expect(result.message).toContain(
      'call #1 changed $TMPDIR/cache/lookup.json (created, 12 bytes) (2 of its 2 calls did)',
    );
    expect(result.message).toMatch(/auto-approve.*without the user confirming/);
    expect(result.expected).toBeTruthy();
    expect(result.evidence).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ seq: 1 }),
        expect.objectContaining({ data: [file('cache/lookup.json', 'created')] }),
      ]),
    );
    expect(result.specRef).toBe('schema.json#/$defs/ToolAnnotations/properties/readOnlyHint/description');
    expect(result.quote).toBe('If true, the tool does not modify its environment.');
  });

  it('says nothing against the honest twin, and ignores changes written late (after the answer)', async () => {
    const ctx = sandboxed({ lookup: { annotations: READ_ONLY } }, ['lookup', 'lookup'], {
      lookup: [file('late.log', 'created')],
    });
    expect(await readOnlyHonest.run(ctx)).toEqual([passing(/^2 call\(s\) of 1 tool\(s\)/)]);
  });

  it('lists a few changes and counts the rest', async () => {
    const many = () => ['a', 'b', 'c', 'd', 'e'].map((p) => file(p, 'created'));
    const [outcome] = await readOnlyHonest.run(
      sandboxed({ lookup: { annotations: READ_ONLY, effects: many } }, ['lookup']),
    );
    expect(outcome!.message).toContain('$TMPDIR/c (created, 12 bytes) and 2 more');
  });

  it('skips without effects, without an annotated tool, and when no annotated tool was called', async () => {
    const plain = {
      ...sandboxed({ lookup: { annotations: READ_ONLY } }),
      effects: undefined,
    } as unknown as CheckContext;
    expect(await readOnlyHonest.run(plain)).toEqual([NOT_SANDBOXED]);
    const unannotated = await readOnlyHonest.run(sandboxed({ write: { annotations: ADDITIVE } }, ['write']));
    expect(unannotated).toEqual([skipping('no listed tool is annotated readOnlyHint: true')]);
    expect(await readOnlyHonest.run(sandboxed({ lookup: { annotations: READ_ONLY } }))).toEqual([
      skipping('none of them was called'),
    ]);
  });
});

describe('tools.annotations.destructive-honest', () => {
  it('warns on a deletion or an overwrite by a tool annotated destructiveHint: false', async () => {
    const ctx = sandboxed(
      {
        save: { annotations: ADDITIVE, effects: writes('notes.json', 'modified') },
        purge: { annotations: ADDITIVE, effects: writes('old.txt', 'deleted') },
      },
      ['save', 'purge'],
    );
    const outcomes = await destructiveHonest.run(ctx);
    expect(outcomes.map((o) => [o.status, o.tool])).toEqual([
      ['fail', 'save'],
      ['fail', 'purge'],
    ]);
    expect(outcomes[1]!.message).toContain('$TMPDIR/old.txt (deleted, was 12 bytes)');
    expect(toResult(destructiveHonest, outcomes[0]!, 0, '2025-06-18')).toMatchObject({
      status: 'warn',
      specRef: 'schema.json#/definitions/ToolAnnotations/properties/destructiveHint/description',
    });
  });

  it('takes created files (and a directory that gained entries) as additive, and ignores read-only tools', async () => {
    const folder: FileEffect = { root: '$TMPDIR', path: 'notes', kind: 'modified', type: 'directory' };
    const additive = () => [file('notes/1.json', 'created'), folder];
    const ctx = sandboxed(
      {
        add: { annotations: ADDITIVE, effects: additive },
        reader: { annotations: { readOnlyHint: true, destructiveHint: false }, effects: writes('x', 'deleted') },
      },
      ['add', 'reader'],
    );
    expect(await destructiveHonest.run(ctx)).toEqual([passing(/^1 call\(s\) of 1 tool\(s\)/)]);
  });

  it('takes a file that grew as additive (a store rewritten whole), and one that shrank as a loss', async () => {
    const rewrite = (size: number, sizeBefore: number) => () => [
      { ...file('memory.json', 'modified', size), sizeBefore },
    ];
    const ctx = sandboxed(
      {
        grows: { annotations: ADDITIVE, effects: rewrite(120, 83) },
        shrinks: { annotations: ADDITIVE, effects: rewrite(40, 83) },
      },
      ['grows', 'shrinks'],
    );
    const outcomes = await destructiveHonest.run(ctx);
    expect(outcomes.map((o) => [o.status, o.tool])).toEqual([['fail', 'shrinks']]);
    expect(outcomes[0]!.message).toContain('$TMPDIR/memory.json (modified, 40 bytes)');
  });

  it('ignores an overwrite written late, after the answer', async () => {
    const ctx = sandboxed({ save: { annotations: ADDITIVE } }, ['save'], { save: [file('notes.json', 'modified')] });
    expect((await destructiveHonest.run(ctx))[0]!.status).toBe('pass');
  });
});

describe('tools.annotations.idempotent-honest', () => {
  it('calls the tool twice with the arguments of an earlier successful call; warns when the second changed files again', async () => {
    const appends = (n: number) => [file('flags.log', n === 0 ? 'created' : 'modified', 10 * (n + 1))];
    const ctx = sandboxed({ set_flag: { annotations: IDEMPOTENT, effects: appends } }, ['set_flag']);
    const outcomes = await idempotentHonest.run(ctx);
    const again = { name: 'set_flag', args: { text: 'first set_flag' } };
    expect(ctx.sent).toEqual([again, again]);
    expect(outcomes).toHaveLength(1);
    const result = toResult(idempotentHonest, outcomes[0]!, 0, '2025-11-25');
    expect(result).toMatchObject({ status: 'warn', keywordText: 'descriptive', tool: 'set_flag' });
    expect(result.message).toContain('the second call #3 changed $TMPDIR/flags.log (modified, 30 bytes)');
    expect(result.message).toContain('(of its earlier call #1)');
    expect(result.evidence.filter((e) => 'seq' in e).map((e) => (e as Exchange).seq)).toEqual([2, 3]);
  });

  it('passes a tool whose first call changes things and whose second changes nothing', async () => {
    const setsOnce = (n: number) => (n < 2 ? [file('flag.json', n === 0 ? 'created' : 'modified')] : []);
    const outcomes = await idempotentHonest.run(
      sandboxed({ set_flag: { annotations: IDEMPOTENT, effects: setsOnce } }, ['set_flag']),
    );
    expect(outcomes).toEqual([passing(/^2 call\(s\) of 1 tool\(s\)/)]);
  });

  it('skips a tool no earlier call of which succeeded (saying so), and read-only tools; skips without effects', async () => {
    const ctx = sandboxed(
      {
        failing: { annotations: IDEMPOTENT, isError: true },
        never: { annotations: IDEMPOTENT },
        reader: { annotations: { readOnlyHint: true, idempotentHint: true } },
      },
      ['failing', 'reader'],
    );
    const [outcome, ...rest] = await idempotentHonest.run(ctx);
    expect(rest).toEqual([]);
    expect(ctx.sent).toEqual([]);
    expect(outcome).toEqual(skipping('2 tool(s) annotated idempotentHint: true (failing, never)'));
    expect(outcome!.message).toContain('failing: none of its 1 earlier call(s) was answered without error');
    expect(outcome!.message).toContain('never: it was not called earlier in this audit');
    const plain = { ...ctx, effects: undefined } as unknown as CheckContext;
    expect(await idempotentHonest.run(plain)).toEqual([NOT_SANDBOXED]);
  });

  it('passes the tools it could judge and names, tool by tool, those it could not', async () => {
    const ctx = sandboxed({ honest: { annotations: IDEMPOTENT }, never: { annotations: IDEMPOTENT } }, ['honest']);
    const outcomes = await idempotentHonest.run(ctx);
    expect(outcomes.map((o) => [o.status, o.tool])).toEqual([
      ['pass', undefined],
      ['skip', 'never'],
    ]);
  });
});

const HAVE_SPEC = REVISIONS.every((wire) => existsSync(specDir(wire)));

describe.skipIf(!HAVE_SPEC)('the quoted hint descriptions', () => {
  it('are found in each revision’s schema.json from 2025-03-26 on, in its own words, and none before', () => {
    for (const check of ANNOTATION_HONESTY_CHECKS) {
      expect(check.sentences['2024-11-05'], check.id).toBeUndefined();
      for (const [wire, sentences] of Object.entries(check.sentences) as [Revision, SpecSentence[]][]) {
        for (const sentence of sentences)
          expect(sentenceProblem(wire, sentence), `${check.id} ${wire}`).toBeUndefined();
      }
    }
    expect(idempotentHonest.sentences['2025-06-18']![0]!.text).toContain('on the its environment');
  });

  it('a descriptive sentence may point at a description that holds it, and nowhere else in schema.json', () => {
    const ref = 'schema.json#/$defs/ToolAnnotations/properties/readOnlyHint/description';
    const described = (at: string, text: string) =>
      sentenceProblem('2025-11-25', { ref: at, text, keyword: 'descriptive' });
    expect(described(ref, 'If true, the tool never modifies anything.')).toMatch(/not found/);
    const type = 'schema.json#/$defs/ToolAnnotations/properties/readOnlyHint/type';
    expect(described(type, '"boolean"')).toMatch(/must point at a description/);
    const requestId = 'schema.json#/$defs/CancelledNotificationParams/properties/requestId/description';
    const must = 'This MUST correspond to the ID of a request previously issued in the same direction.';
    expect(described(requestId, must)).toMatch(/requirement keyword/);
    expect(described(requestId, 'The ID of the request to cancel.')).toBeUndefined();
  });
});
