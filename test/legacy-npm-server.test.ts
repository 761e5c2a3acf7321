import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, explain, runCli } from './helpers/cli.js';

const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

describe.skipIf(!BUILT)('a real npm server on the legacy wire', () => {
  it('@modelcontextprotocol/server-everything (stdio): completes on 2025-11-25 with no failures', async () => {
    const run = await runCli(['--stdio', `${process.execPath} ${everything} stdio`], { timeoutMs: 30_000 });
    expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
    expect(run.report!.wire.reason).toMatch(/fell back to initialize/);
    expect(explain(run.report)).toBe('(no fail/warn/error)');
    expect(run.code).toBe(0);
    expect(run.report!.checks.find((c) => c.id === 'discover.must-implement')!.status).toBe('skip');
  });
});
