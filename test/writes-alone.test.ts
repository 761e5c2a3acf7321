import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, ROOT, runCli } from './helpers/cli.js';

const KNOWLEDGE_GRAPH = join(ROOT, 'test/fixtures/knowledge-graph-server.mjs');

interface LoggedCall {
  tool: string;
  pid: number;
  start: number;
  end: number;
}

const readLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');

/** Pairs of calls in flight together where at least one may write (only read_graph is annotated read-only). */
function overlapsWithAWriter(calls: readonly LoggedCall[]): string[] {
  const found: string[] = [];
  calls.forEach((a, i) =>
    calls.slice(i + 1).forEach((b) => {
      const bothRead = a.tool === 'read_graph' && b.tool === 'read_graph';
      if (!bothRead && a.start < b.end && b.start < a.end) found.push(`${a.tool}@${a.pid} with ${b.tool}@${b.pid}`);
    }),
  );
  return found;
}

describe.skipIf(!BUILT)('tools that are not read-only are never called concurrently', () => {
  it('a knowledge-graph server audited with --allow-all-tools at the default concurrency keeps a valid file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtc-kg-'));
    const memory = join(dir, 'memory.jsonl');
    const callLog = join(dir, 'calls.jsonl');
    const run = await runCli(['--stdio', `${process.execPath} ${KNOWLEDGE_GRAPH} --memory ${memory} --call-log ${callLog}`, '--allow-all-tools', '--runs', '10']);
    expect(run.report!.options.concurrency).toBeGreaterThan(1);
    expect(run.report!.depth).toMatchObject({ toolsListed: 4, toolsCalled: 4 });
    const calls = readLines(callLog).map((line) => JSON.parse(line) as LoggedCall);
    expect(calls.filter((c) => c.tool === 'create_entities').length).toBeGreaterThan(5);
    expect(overlapsWithAWriter(calls)).toEqual([]);
    const notJson = readLines(memory).filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(run.report!.checks.filter((c) => c.status === 'warn' && /-32603|Unexpected/.test(c.message))).toEqual([]);
  }, 60_000);
});
