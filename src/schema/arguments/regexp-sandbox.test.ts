import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { compileArgumentSchema } from './validate.js';
import { forgetRegExpOverruns, REGEXP_DEADLINE_MS, RegExpTimeoutError, testWithDeadline } from './regexp-sandbox.js';
import { sampleArguments } from './sample.js';

/** Runs `work` while a histogram samples the event loop every 10 ms; returns the longest stall seen, in ms. */
async function longestStall(work: () => Promise<void>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    await work();
  } finally {
    histogram.disable();
  }
  return histogram.max / 1e6;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('target patterns run with a deadline', () => {
  it('answers like RegExp for ordinary patterns', () => {
    expect(testWithDeadline('^[a-z]+$', 'u', 'abc')).toBe(true);
    expect(testWithDeadline('^[a-z]+$', 'u', 'ab1')).toBe(false);
    expect(testWithDeadline('^\\p{Lu}', 'u', 'Émile')).toBe(true);
    expect(() => testWithDeadline('(', 'u', 'x')).toThrow(SyntaxError);
  });

  it('gives up on polynomial backtracking no static guard sees, and not for shorter strings', () => {
    const started = performance.now();
    expect(() => testWithDeadline('x*x*x*x*y', 'u', 'x'.repeat(4000))).toThrow(RegExpTimeoutError);
    expect(performance.now() - started).toBeLessThan(REGEXP_DEADLINE_MS + 2000);
    expect(testWithDeadline('x*x*x*x*y', 'u', 'xxy')).toBe(true);
  });

  it('does not run a pattern again on a string as long as one it overran on, until told to forget (a new audit in the process)', () => {
    const pattern = 'z*z*z*z*y';
    // Fast on a string of 'y's: the pattern matches at once.
    const benign = 'y'.repeat(4001);
    expect(() => testWithDeadline(pattern, 'u', 'z'.repeat(4000))).toThrow(RegExpTimeoutError);
    expect(() => testWithDeadline(pattern, 'u', benign)).toThrow(RegExpTimeoutError);
    forgetRegExpOverruns();
    expect(testWithDeadline(pattern, 'u', benign)).toBe(true);
  });

  it('keeps the event loop responsive while hostile schemas meet long strings', async () => {
    const hostile = [
      { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
      { type: 'object', properties: { s: { type: 'string', pattern: 'a*a*a*a*a*b' } } },
      { type: 'object', properties: { s: { type: 'string', pattern: '^(\\w+\\s?)*$' } } },
      { type: 'object', patternProperties: { 'q*q*q*q*r': { type: 'string' } } },
      {
        type: 'object',
        properties: { s: { type: 'string', pattern: 'c*c*c*c*d', default: 'c'.repeat(5000), minLength: 5000 } },
      },
    ];
    const long = 'a'.repeat(20_000) + '!';
    const verdicts: string[] = [];
    testWithDeadline('^warm$', 'u', 'warm');
    const stall = await longestStall(async () => {
      for (const schema of hostile) {
        const compiled = compileArgumentSchema(schema);
        await turn();
        verdicts.push(
          compiled.ok
            ? JSON.stringify(
                compiled.validator.validate({ s: long, ['q'.repeat(5000)]: 'x' }).issues.map((i) => i.keyword),
              )
            : 'refused',
        );
        await turn();
        sampleArguments(schema);
        await turn();
      }
    });
    expect(verdicts[0]).toBe('refused');
    expect(verdicts[2]).toBe('refused');
    expect(verdicts[1]).toContain('undecided');
    expect(verdicts[3]).toContain('undecided');
    // One deadline and a worker restart at most per hostile test, plus a margin a loaded CI machine cannot eat: nowhere
    // near the minutes a bare RegExp would take (npm run bench measures speed, this catches a blocked loop).
    expect(stall).toBeLessThan(REGEXP_DEADLINE_MS * 4 + 4000);
  });
});
