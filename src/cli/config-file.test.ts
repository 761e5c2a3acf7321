import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArgs, quickParse } from './args.js';
import { UsageError } from './usage-error.js';
import { ConfigError, normalizeConfig } from './config-file.js';

const NAMES = ['url', 'stdio', 'header', 'env', 'checks', 'output-dir', 'timeout', 'verbose', 'config'];

describe('normalizeConfig', () => {
  const env = { MCP_TOKEN: 'tok-123', EMPTY: '' };
  const normalize = (raw: unknown) => normalizeConfig(raw, 'cfg', NAMES, env);

  it('takes option names in either case, and headers and env as objects or lists', () => {
    expect(normalize({ outputDir: 'o', 'output-dir': 'p', timeout: 5, checks: ['a.*'], verbose: true })).toEqual({
      'output-dir': 'p',
      timeout: 5,
      checks: ['a.*'],
      verbose: true,
    });
    expect(normalize({ headers: { 'X-A': 'b' }, header: ['X-C: d'], env: { KEY: 'v' } })).toEqual({
      header: ['X-A: b', 'X-C: d'],
      env: ['KEY=v'],
    });
    expect(normalize({ header: 'X-A: b', env: ['A=1'] })).toEqual({ header: ['X-A: b'], env: ['A=1'] });
  });

  it('replaces ${env:NAME} in header and env values', () => {
    expect(
      normalize({ headers: { Authorization: 'Bearer ${env:MCP_TOKEN}' }, env: { API_KEY: '${env:MCP_TOKEN}-x' } }),
    ).toEqual({
      header: ['Authorization: Bearer tok-123'],
      env: ['API_KEY=tok-123-x'],
    });
  });

  it.each([
    [[], /must be a JSON object/],
    [{ nope: 1 }, /unknown option "nope"/],
    [{ config: 'other.json' }, /unknown option "config"/],
    [{ extends: './base.json' }, /unknown option "extends"/],
    [{ checks: { a: 1 } }, /"checks" must be a string, number, boolean or a list/],
    [{ headers: { A: 1 } }, /"headers" must be an object of names to string values/],
    [
      { headers: { Authorization: 'Bearer ${env:MISSING}' } },
      /cfg: header "Authorization" refers to \$\{env:MISSING\}, which is unset or empty/,
    ],
    [{ env: ['KEY=${env:EMPTY}'] }, /env "KEY" refers to \$\{env:EMPTY\}/],
    [
      { url: '${env:MCP_TOKEN}' },
      /"url" refers to an environment variable; \$\{env:NAME\} works in header and env values only/,
    ],
  ])('refuses %j', (raw, message) => {
    expect(() => normalize(raw)).toThrow(ConfigError);
    expect(() => normalize(raw)).toThrow(message);
  });
});

describe('options from a config file and package.json (parseArgs in their folder)', () => {
  let dir: string;
  const home = process.cwd();
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mtc-config-'));
    process.chdir(dir);
  });
  afterEach(() => {
    process.chdir(home);
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, value: unknown) =>
    writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
  /** Both parses, which must agree. */
  // At a terminal: these configs need not name a target.
  const terminal = { interactive: true };
  const parse = async (argv: string[]) => {
    const full = await parseArgs([...argv], '1.0.0', { quick: false, terminal });
    expect(quickParse(argv)).toBeDefined();
    expect(await parseArgs([...argv], '1.0.0', { terminal })).toEqual(full);
    return full!;
  };

  it('layers flags over the config file over package.json over the defaults', async () => {
    write('package.json', {
      name: 'x',
      'mcp-tools-conformance': { timeout: 1000, 'max-duration': 2000, checks: 'a.*', 'fail-on': 'should' },
    });
    write('mcp-tools-conformance.config.json', { timeout: 3000, 'max-duration': 4000, reporter: 'json,sarif' });
    const options = await parse(['--max-duration', '5000']);
    expect(options).toMatchObject({
      maxDurationMs: 5000,
      timeoutMs: 3000,
      checks: ['a.*'],
      failOn: 'should',
      reporters: ['json', 'sarif'],
      concurrency: 4,
    });
  });

  it("reads package.json's key alone, and a file named by --config instead of the one in the folder", async () => {
    write('package.json', { name: 'x', 'mcp-tools-conformance': { 'output-dir': 'from-package' } });
    expect((await parse([])).outputDir).toBe('from-package');
    write('mcp-tools-conformance.config.json', { 'output-dir': 'from-default-file' });
    write('other.json', { timeout: 7 });
    expect(await parse(['--config', 'other.json'])).toMatchObject({ outputDir: 'from-package', timeoutMs: 7 });
    expect((await parse([])).outputDir).toBe('from-default-file');
  });

  it("a list flag replaces the config's list; a target flag replaces the config's target", async () => {
    write('mcp-tools-conformance.config.json', {
      url: 'http://127.0.0.1:1/mcp',
      headers: { 'X-A': 'b' },
      checks: ['a.*', 'b.*'],
    });
    expect(await parse([])).toMatchObject({
      url: 'http://127.0.0.1:1/mcp',
      headers: { 'X-A': 'b' },
      checks: ['a.*', 'b.*'],
    });
    const options = await parse(['--stdio', 'node s.js', '--checks', 'c.*', '--header', 'X-C: d']);
    expect(options).toMatchObject({ stdio: 'node s.js', checks: ['c.*'], headers: { 'X-C': 'd' } });
    expect(options.url).toBeUndefined();
  });

  it.each([
    [
      'mcp-tools-conformance.config.json',
      '{"timeout": ',
      [],
      /^config file mcp-tools-conformance\.config\.json is not valid JSON: /,
    ],
    ['other.json', '{}', ['--config', 'missing.json'], /^cannot read config file missing\.json: ENOENT$/],
    [
      'package.json',
      { 'mcp-tools-conformance': { colour: true } },
      [],
      /^package\.json "mcp-tools-conformance": unknown option "colour"/,
    ],
  ] as const)('%s %j %j is a usage error', async (file, content, argv, message) => {
    write(file, content);
    for (const quick of [true, false]) {
      const error = await parseArgs([...argv], '1.0.0', { quick }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('checks config values as it checks flags', async () => {
    write('mcp-tools-conformance.config.json', { 'protocol-version': '1999-01-01', timeout: -1 });
    await expect(parseArgs([], '1.0.0', { terminal })).rejects.toThrow(/Invalid values: Argument: protocol-version/);
    write('mcp-tools-conformance.config.json', { timeout: -1 });
    await expect(parseArgs([], '1.0.0', { terminal })).rejects.toThrow('--timeout must be a positive number');
  });
});
