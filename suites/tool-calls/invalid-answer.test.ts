import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/model/exchange.js';
import type { InvalidArguments } from '../../src/schema/arguments/index.js';
import { REVISIONS } from '../../src/core/revision.js';
import { toResult } from '../../src/runner/runner.js';
import {
  failureSignature,
  judgeInvalidAnswer,
  lenientOutcome,
  refusalExpected,
  refusalRemark,
  type ComparedFailures,
  type Control,
} from './invalid-answer.js';
import { invalidArgumentsRejected } from './tool-results.js';

const exchange = (args: Record<string, unknown>, response: unknown): Exchange => ({
  seq: 1,
  sentAt: '',
  durationMs: 0,
  request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: args } },
  response,
  notifications: [],
});
const ok = (args: Record<string, unknown>, text = 'done') =>
  exchange(args, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } });
const isError = (args: Record<string, unknown>, text: string) =>
  exchange(args, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }], isError: true } });
const rpcError = (args: Record<string, unknown>, code: number, message: string) =>
  exchange(args, { jsonrpc: '2.0', id: 1, error: { code, message } });

const VALID = { path: 'notes.txt' };
const mutation = (
  over: Partial<InvalidArguments> & Pick<InvalidArguments, 'kind' | 'path' | 'value'>,
): InvalidArguments => ({ description: `${over.kind} at ${over.path}`, ...over });
const WRONG_TYPE = mutation({ kind: 'wrong-type', path: '/path', value: { path: [] } });
const control = (answer: Exchange | undefined, args = VALID): Control & { asked: number } => {
  const c = { args, asked: 0, answer: async () => ((c.asked += 1), answer) };
  return c;
};

describe('the verdict on an answer to invalid arguments', () => {
  it('fails a success that no looser validator explains, whatever the kind', async () => {
    for (const m of [
      WRONG_TYPE,
      mutation({ kind: 'null-value', path: '/path', value: { path: null } }),
      mutation({ kind: 'missing-required', path: '/path', value: {} }),
    ]) {
      expect((await judgeInvalidAnswer(ok(m.value), m, control(ok(VALID)))).verdict, m.kind).toBe('breach');
    }
  });

  it('warns for a coercion or null read as absent, and asks for no control to do so', async () => {
    const coerced = mutation({
      kind: 'wrong-type',
      path: '/limit',
      value: { ...VALID, limit: '3' },
      lenientReading: 'coercion',
    });
    const nul = mutation({
      kind: 'null-value',
      path: '/limit',
      value: { ...VALID, limit: null },
      lenientReading: 'null-as-absent',
    });
    for (const m of [coerced, nul]) {
      const c = control(ok(VALID));
      expect(await judgeInvalidAnswer(ok(m.value), m, c)).toMatchObject({
        verdict: 'lenient',
        reading: m.lenientReading,
      });
      expect(c.asked).toBe(0);
    }
  });

  it('warns for an undeclared property only when the answer names it and says, in words of its own, it was set aside', async () => {
    const extra = mutation({
      kind: 'extra-property',
      path: '/unexpectedProperty',
      value: { ...VALID, unexpectedProperty: 'unexpected' },
      lenientReading: 'ignored',
    });
    const judge = (text: string) => judgeInvalidAnswer(ok(extra.value, text), extra, control(ok(VALID)));
    expect(
      await judge('done\n\nYou sent parameters not supported by this tool, which were ignored: unexpectedProperty'),
    ).toMatchObject({ verdict: 'lenient', reading: 'ignored' });
    expect(await judge('Unknown argument unexpectedProperty dropped')).toMatchObject({ verdict: 'lenient' });
    // An echo of the arguments names the property, and its value "unexpected", without saying anything about them.
    expect((await judge(JSON.stringify(extra.value))).verdict).toBe('breach');
    expect((await judge('some parameters were ignored')).verdict).toBe('breach');
    expect((await judge('done')).verdict).toBe('breach');
  });

  it('counts a failure as a refusal only when the control does not fail the same way', async () => {
    const refused = await judgeInvalidAnswer(
      isError(WRONG_TYPE.value, 'Invalid arguments: expected string, received array'),
      WRONG_TYPE,
      control(isError(VALID, 'fetch failed')),
    );
    expect(refused).toEqual({ verdict: 'refused' });
    expect(
      await judgeInvalidAnswer(rpcError(WRONG_TYPE.value, -32602, 'bad path'), WRONG_TYPE, control(ok(VALID))),
    ).toEqual({ verdict: 'refused', code: -32602 });
    const same = await judgeInvalidAnswer(
      isError(WRONG_TYPE.value, 'fetch failed'),
      WRONG_TYPE,
      control(isError(VALID, 'fetch failed')),
    );
    expect(same).toMatchObject({
      verdict: 'inconclusive',
      why: expect.stringMatching(/fails the same way \("fetch failed"\)/),
    });
    const unanswered = await judgeInvalidAnswer(
      isError(WRONG_TYPE.value, 'fetch failed'),
      WRONG_TYPE,
      control(undefined),
    );
    expect(unanswered).toMatchObject({
      verdict: 'inconclusive',
      why: expect.stringMatching(/no answer to compare with/),
    });
  });

  it('compares each way of failing once when given what was compared before', async () => {
    const compared: ComparedFailures = new Map();
    const first = control(isError(VALID, 'fetch failed'));
    const second = control(isError(VALID, 'fetch failed'));
    expect(
      (await judgeInvalidAnswer(isError(WRONG_TYPE.value, 'fetch failed'), WRONG_TYPE, first, compared)).verdict,
    ).toBe('inconclusive');
    expect(
      (await judgeInvalidAnswer(isError(WRONG_TYPE.value, 'fetch failed'), WRONG_TYPE, second, compared)).verdict,
    ).toBe('inconclusive');
    expect([first.asked, second.asked]).toEqual([1, 0]);
  });
});

describe('a lenient verdict in the report', () => {
  it('warns on every wire, quoting a descriptive sentence of the check on that wire', () => {
    for (const wire of REVISIONS) {
      for (const reading of ['ignored', 'coercion', 'null-as-absent'] as const) {
        const result = toResult(
          invalidArgumentsRejected,
          lenientOutcome({ verdict: 'lenient', reading, problem: 'p' }, wire, 't', []),
          0,
          wire,
        );
        expect(result, `${wire} ${reading}`).toMatchObject({ status: 'warn', keywordText: 'descriptive' });
        expect(result.specRef).toBe(reading === 'ignored' ? 'server/tools#error-handling' : 'server/tools#tool');
      }
    }
  });
});

describe('a refusal as each revision describes it', () => {
  const noted = [{ where: 't: -32602 (wrong-type)', code: -32602 }];

  it('from 2025-11-25 on, the tools page describes isError for input validation errors: a JSON-RPC error is noted as such', () => {
    for (const wire of ['2026-07-28', '2025-11-25'] as const) {
      expect(refusalRemark(noted, wire), wire).toMatch(
        /answered with a JSON-RPC error instead of an isError result: -32602/,
      );
      expect(refusalExpected(wire), wire).toMatch(
        /^the input refused: a result with isError: true \(as the tools page describes\)/,
      );
    }
    expect(refusalRemark(noted, '2026-07-28')).toMatch(/InvalidParamsError/);
    expect(refusalRemark(noted, '2025-11-25')).not.toMatch(/InvalidParamsError/);
  });

  it('before, invalid arguments are protocol errors: a JSON-RPC error is what the page describes, and the undeclared property rests on those words', () => {
    for (const wire of ['2025-06-18', '2025-03-26', '2024-11-05'] as const) {
      expect(refusalRemark(noted, wire), wire).toMatch(
        /answered with a JSON-RPC error \(-32602\), as the tools page describes invalid arguments/,
      );
      expect(refusalExpected(wire), wire).toMatch(
        /^the input refused: a JSON-RPC error \(the tools page counts invalid arguments among protocol errors\)/,
      );
      const result = toResult(
        invalidArgumentsRejected,
        lenientOutcome({ verdict: 'lenient', reading: 'ignored', problem: 'p' }, wire, 't', []),
        0,
        wire,
      );
      expect(result.quote, wire).toMatch(/Invalid arguments … Tool Execution Errors: .* Invalid input data$/);
      expect(result.expected, wire).toMatch(
        /a JSON-RPC error for invalid arguments, or an isError result for invalid input data/,
      );
    }
  });
});

describe('failureSignature', () => {
  const tokens = ['notes.txt', 'path'];
  it('blots out echoed argument names and texts standing as words, and digits, but keeps what the failure says', () => {
    const a = failureSignature(isError(VALID, 'ENOENT: no such file, open "notes.txt" (request 4711)'), tokens);
    const b = failureSignature(isError({ path: 'x' }, 'ENOENT: no such file, open "notes.txt" (request 99)'), tokens);
    expect(a).toBe(b);
    expect(a).toBe('iserror: enoent: no such file, open "…" (request #)');
    expect(failureSignature(isError(VALID, 'xpath: bad'), tokens)).toBe('iserror: xpath: bad');
    expect(failureSignature(rpcError(VALID, -32603, 'fetch failed'), tokens)).not.toBe(
      failureSignature(isError(VALID, 'fetch failed'), tokens),
    );
    expect(failureSignature(ok(VALID), tokens)).toBeUndefined();
  });
});
