import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxUnavailable } from '../src/sandbox/index.js';
import { BUILT, ROOT, runCli } from './helpers/cli.js';

const SANDBOX = BUILT && (await sandboxUnavailable()) === undefined;
const KNOWLEDGE_GRAPH = join(ROOT, 'test/fixtures/knowledge-graph-server.mjs');

interface LoggedCall {
  tool: string;
  pid: number;
  start: number;
  end: number;
}

const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');

const READ_ONLY = new Set(['read_graph', 'search_nodes']);

/**
 * Pairs of calls in flight together where at least one may write (read_graph and search_nodes are annotated read-only).
 */
function overlapsWithAWriter(calls: readonly LoggedCall[]): string[] {
  const found: string[] = [];
  calls.forEach((a, i) =>
    calls.slice(i + 1).forEach((b) => {
      const bothRead = READ_ONLY.has(a.tool) && READ_ONLY.has(b.tool);
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
    const run = await runCli([
      '--stdio',
      `${process.execPath} ${KNOWLEDGE_GRAPH} --memory ${memory} --call-log ${callLog}`,
      '--allow-all-tools',
      '--runs',
      '10',
    ]);
    expect(run.report!.options.concurrency).toBeGreaterThan(1);
    expect(run.report!.depth).toMatchObject({ toolsListed: 5, toolsCalled: 5 });
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

  it.skipIf(!SANDBOX)(
    "under --sandbox every call runs alone, read-only ones too, so each change is its own call's",
    async () => {
      const calls: LoggedCall[] = [];
      const collector = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => (body += chunk));
        request.on('end', () => {
          calls.push(JSON.parse(body) as LoggedCall);
          response.end();
        });
      });
      await new Promise<void>((listening) => collector.listen(0, '127.0.0.1', listening));
      const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/`;
      try {
        const memory = join(mkdtempSync(join(tmpdir(), 'mtc-kg-')), 'memory.jsonl');
        const server = `${process.execPath} ${KNOWLEDGE_GRAPH} --memory ${memory} --call-log-url ${url}`;
        const run = await runCli(['--stdio', server, '--sandbox', '--sandbox-network', '--runs', '10']);
        expect(run.report!.depth).toMatchObject({ toolsCalled: 5, sandboxed: true });
        expect(calls.filter((c) => READ_ONLY.has(c.tool)).length).toBeGreaterThan(10);
        const overlapping = calls.flatMap((a, i) =>
          calls
            .slice(i + 1)
            .filter((b) => a.start < b.end && b.start < a.end)
            .map((b) => `${a.tool} with ${b.tool}`),
        );
        expect(overlapping).toEqual([]);
      } finally {
        collector.close();
      }
    },
    60_000,
  );
});
