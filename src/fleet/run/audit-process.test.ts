import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAuditProcess } from './audit-process.js';
import { SPARE_COMMAND } from './spare-protocol.js';

const dir = mkdtempSync(join(tmpdir(), 'mtc-audit-process-'));

/**
 * A stand-in for our CLI started as a spare: writes what it was given (its command line, the arguments on its stdin,
 * cwd, its --config file and that file's mode) as its report.
 */
const RECORDER = join(dir, 'recorder.mjs');
writeFileSync(
  RECORDER,
  `import { readFileSync, statSync, writeFileSync } from 'node:fs';
const commandLine = process.argv.slice(2);
const argv = JSON.parse(readFileSync(0, 'utf8'));
const config = argv[argv.indexOf('--config') + 1];
const out = argv[argv.indexOf('--output-dir') + 1];
const seen = { commandLine, argv, cwd: process.cwd(), config, mode: statSync(config).mode & 0o777, secrets: JSON.parse(readFileSync(config, 'utf8')) };
writeFileSync(out + '/report.json', JSON.stringify({ checks: [], seen }));
process.stderr.write('one\\n\\ntwo\\n');
`,
);

/** A stand-in that never ends and ignores SIGTERM: only SIGKILL stops it. */
const STUBBORN = join(dir, 'stubborn.mjs');
writeFileSync(STUBBORN, `process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`);

describe('runAuditProcess', () => {
  it('passes the secrets in a private config file, runs in a private folder, reads the report back and removes the folder', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mtc-audit-out-'));
    const invocation = { args: ['--stdio', 'node server.js', '--output-dir', out], config: { env: { API_KEY: 'sk-secret-value-123' } } };
    const run = await runAuditProcess(RECORDER, invocation, join(out, 'report.json'), 10_000);
    const seen = (run.report as unknown as { seen: { commandLine: string[]; argv: string[]; cwd: string; config: string; mode: number; secrets: unknown } }).seen;
    expect(run).toMatchObject({ exitCode: 0, killed: false, stderr: ['one', 'two'] });
    expect(seen.commandLine).toEqual([SPARE_COMMAND]);
    expect(seen.argv.slice(0, 3)).toEqual(['run', '--stdio', 'node server.js']);
    expect(seen.argv.join(' ')).not.toContain('sk-secret-value-123');
    expect(seen.secrets).toEqual({ env: { API_KEY: 'sk-secret-value-123' } });
    expect(seen.mode).toBe(0o600);
    expect(seen.cwd).not.toBe(process.cwd());
    expect(seen.config.startsWith(seen.cwd)).toBe(true);
    expect(existsSync(seen.cwd)).toBe(false);
  });

  it('stops an audit that outlives its budget and margin, with SIGKILL when SIGTERM is ignored', { timeout: 20_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'mtc-audit-out-'));
    const run = await runAuditProcess(STUBBORN, { args: ['--output-dir', out], config: {} }, join(out, 'report.json'), 100, undefined, { marginMs: 100, graceMs: 300 });
    expect(run).toMatchObject({ exitCode: null, killed: true });
    expect(run.report).toBeUndefined();
  });
});
