import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REUSE_LIMITS, runAuditWorker } from './audit-worker-protocol.js';

const lines = (...args: string[][]) => Readable.from(args.map((a) => `${JSON.stringify(a)}\n`));

/** Runs a worker over `input` with a results file, recording each audit's arguments and each reset between them. */
async function serve(input: Readable, options: { heapUsed?: () => number; exitCodes?: number[] } = {}) {
  const file = join(mkdtempSync(join(tmpdir(), 'mtc-worker-results-')), 'results');
  const fd = openSync(file, 'w');
  const calls: string[] = [];
  try {
    const code = await runAuditWorker(
      input,
      async (args) => {
        calls.push(args.join(' '));
        return options.exitCodes?.[calls.filter((c) => c !== 'reset').length - 1] ?? 0;
      },
      // The test worker's own heap is no audit's (vitest runs many files in one process): a small one unless given.
      { resultsFd: fd, between: () => calls.push('reset'), heapUsed: options.heapUsed ?? (() => 0) },
    );
    return {
      code,
      calls,
      results: readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as unknown),
    };
  } finally {
    closeSync(fd);
  }
}

describe('worker protocol', () => {
  it('reads one line of arguments, or none when stdin ends empty, and refuses anything but strings', async () => {
    /** The arguments of the one audit a worker without a results descriptor runs, or undefined when it runs none. */
    const workerArguments = async (input: Readable) => {
      let given: string[] | undefined;
      await runAuditWorker(input, async (args) => ((given = args), 0));
      return given;
    };
    expect(await workerArguments(Readable.from(['["run","--stdio",', '"node s.js"]\n', 'ignored']))).toEqual([
      'run',
      '--stdio',
      'node s.js',
    ]);
    expect(await workerArguments(Readable.from([]))).toBeUndefined();
    await expect(workerArguments(Readable.from(['[1]\n']))).rejects.toThrow(/not an array of strings/);
  });

  it('without a results descriptor, runs the first line only and ends with its exit code', async () => {
    const seen: string[][] = [];
    const code = await runAuditWorker(lines(['a'], ['b']), async (args) => (seen.push(args), 1));
    expect(code).toBe(1);
    expect(seen).toEqual([['a']]);
    expect(await runAuditWorker(Readable.from([]), async () => 1)).toBe(0);
  });

  it('with one, runs every line in turn, reports each end there, and resets the process between audits', async () => {
    const run = await serve(lines(['a'], ['b'], ['c']), { exitCodes: [0, 1, 3] });
    expect(run.calls).toEqual(['a', 'reset', 'b', 'reset', 'c']);
    expect(run.results).toEqual([
      { exitCode: 0, reusable: true },
      { exitCode: 1, reusable: true },
      { exitCode: 3, reusable: true },
    ]);
    expect(run.code).toBe(3);
  });

  it('a blank line ends it like the end of stdin', async () => {
    const run = await serve(Readable.from(['["a"]\n', '\n', '["b"]\n']));
    expect(run.calls).toEqual(['a']);
  });

  it('says it takes no more audits, and ends, after its most audits or with a large heap', async () => {
    const many = Array.from({ length: REUSE_LIMITS.audits + 2 }, (_, i) => [`s${i}`]);
    const run = await serve(lines(...many));
    expect(run.calls.filter((c) => c !== 'reset')).toHaveLength(REUSE_LIMITS.audits);
    expect(run.results.at(-1)).toEqual({ exitCode: 0, reusable: false });
    expect(run.results.slice(0, -1).every((r) => (r as { reusable: boolean }).reusable)).toBe(true);

    const heavy = await serve(lines(['a'], ['b']), { heapUsed: () => REUSE_LIMITS.heapBytes });
    expect(heavy.calls).toEqual(['a']);
    expect(heavy.results).toEqual([{ exitCode: 0, reusable: false }]);
  });
});
