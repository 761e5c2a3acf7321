import { describe, expect, it } from 'vitest';
import { helpPointer, parseArgs, quickParse, withSuggestions } from './args.js';
import { commandOptions } from './options/commands.js';
import { UsageError } from './usage-error.js';

const VERSION = '9.9.9';

/** Ordinary command lines: the quick parse must take them and agree with yargs on every option. */
const ORDINARY: readonly string[][] = [
  [],
  ['--stdio', 'node server.js --flag'],
  ['run', '--stdio', 'node s.js'],
  ['--url', 'http://127.0.0.1:3000/mcp', '--header', 'Authorization: Bearer x', '--header', 'X-A: b'],
  ['--stdio=node s.js', '--timeout=2500', '--max-duration', '60000', '--concurrency', '6'],
  ['--checks', 'tools.*,meta.key.prefix', '--checks', 'subs.ack.first', '--exclude-checks', 'property*'],
  ['--checks', 'a.b', 'c.d', '--reporter', 'json,sarif'],
  ['--protocol-version', '2025-11-25', '--fail-on', 'should', '--verbose', '--junit-properties'],
  ['--allow-tools', 'echo', '--allow-tools', 'get_time,add', '--no-verbose'],
  ['--skip-tools', 'slow_search', '--skip-tools', 'get_time,costly', '--allow-tools', 'echo'],
  ['--allow-all-tools', '--list-changed-trigger', 'toggle', '--list-changed-args', '{"on":true}'],
  ['--env', 'API_KEY=s3cret', '--env', 'EMPTY=', '--stdio', 'node s.js'],
  ['--seed', '42', '--runs', '7', '--replay', 'echo@1:2:3'],
  ['--max-rps', '0.5', '--max-message-bytes', '1048576', '--output-dir', 'out/reports'],
  ['--baseline', 'known.json', '--lock', 'tools.lock.json', '--sarif-artifact', 'servers/mine'],
  ['snapshot', '--stdio', 'node s.js'],
  ['baseline', '--write', '--baseline', 'b.json'],
  ['lock', '--write'],
  ['--from-snapshot', 'tools.json', '--list'],
  ['--outputDir', 'camel'],
  ['--timeout', 'abc'],
  ['--fail-on', 'may', '--stdio', 'node s.js'],
  ['--fail-on', 'SHOULD', '--fail-on-stale', '--stdio', 'node s.js'],
  [
    '--hosts',
    'claude,vscode',
    '--hosts',
    'openai',
    '--fail-on-host',
    'claude',
    '--server-name',
    'github',
    '--stdio',
    'node s.js',
  ],
  ['--color', '--reference-server'],
  ['--no-color', '--stdio', 'node s.js'],
  ['baseline', '--write', 'b.json', '--stdio', 'node s.js'],
  ['lock', '--write', 'tools.lock.json', '--url', 'http://127.0.0.1:1/mcp'],
  ['--revisions', 'all', '--stdio', 'node s.js'],
  ['--revisions', '2024-11-05,2025-06-18', '--revisions', '2025-06-18', '--stdio', 'node s.js'],
  ['--revisions', '2025-11-24', '--stdio', 'node s.js'],
  ['--stdio', 'node s.js', '--cwd', '/srv/project'],
  ['fleet', 'a/mcp.json', '.vscode/mcp.json', '--jobs', '3', '--shard', '2/4', '--fail-on-unavailable'],
  ['fleet', '--discover', '--audit', '--allow-tools', 'github:search,memory:read_graph', '--reporter', 'json'],
  ['fleet', '--discover'],
  ['fleet', 'x.json', '--stdio', 'node s.js'],
];

/** Command lines the quick parse must leave to yargs (help, version, and every kind of usage error). */
const FOR_YARGS: readonly string[][] = [
  ['--help'],
  ['-h'],
  ['--version'],
  ['--no-such-option'],
  ['-x'],
  ['--protocol-version', '2024-01-01'],
  ['--reference-server', '--stdio', 'a'],
  ['--stdio', 'a', '--url', 'http://x'],
  ['--from-snapshot', 'f.json', '--stdio', 'a'],
  ['frobnicate'],
  ['run', 'extra'],
  ['--stdio', 'a', '--', 'b'],
];

describe('quickParse (yargs-parser alone) agrees with yargs', () => {
  it.each(ORDINARY.map((argv) => [argv.join(' ') || '(no arguments)', argv] as const))('%s', async (_label, argv) => {
    expect(quickParse(argv)).toBeDefined();
    const quick = await settle(() => parseArgs([...argv], VERSION));
    const full = await settle(() => parseArgs([...argv], VERSION, { quick: false }));
    expect(quick).toEqual(full);
  });

  it.each(FOR_YARGS.map((argv) => [argv.join(' '), argv] as const))('leaves %s to yargs', (_label, argv) => {
    expect(quickParse(argv)).toBeUndefined();
  });

  it('reads the new flags: --color/--no-color, --fail-on in any case, --write <file>, --reference-server', async () => {
    const interactive = { terminal: { interactive: true } };
    expect(await parseArgs(['--no-color'], VERSION, interactive)).toMatchObject({
      color: false,
      referenceServer: false,
    });
    expect(await parseArgs(['--color', '--reference-server'], VERSION)).toMatchObject({
      color: true,
      referenceServer: true,
    });
    expect((await parseArgs([], VERSION, interactive))!.color).toBeUndefined();
    expect(await parseArgs(['--fail-on', 'Should', '--stdio', 's'], VERSION)).toMatchObject({
      failOn: 'should',
      failOnStale: false,
    });
    expect(await parseArgs(['baseline', '--write', 'b.json', '--stdio', 's'], VERSION)).toMatchObject({
      command: 'baseline',
      baseline: 'b.json',
    });
    expect(await parseArgs(['baseline', '--write', '--baseline', 'old.json', '--stdio', 's'], VERSION)).toMatchObject({
      baseline: 'old.json',
    });
    expect(await parseArgs(['lock', '--write', 'l.json', '--stdio', 's'], VERSION)).toMatchObject({
      command: 'lock',
      lock: 'l.json',
    });
    await expect(parseArgs(['baseline', '--stdio', 's'], VERSION)).rejects.toThrow(/baseline needs --write <file>/);
  });

  it('--revisions: all or a list, newest first and each once; only for an audit of a live target that chooses no revision itself', async () => {
    expect((await parseArgs(['--revisions', 'all', '--stdio', 's'], VERSION))!.revisions).toEqual([
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2024-11-05',
    ]);
    expect(
      (await parseArgs(['--revisions', '2024-11-05,2025-11-25', '--revisions', '2024-11-05', '--stdio', 's'], VERSION))!
        .revisions,
    ).toEqual(['2025-11-25', '2024-11-05']);
    expect(
      await parseArgs(['baseline', '--write', 'b.json', '--revisions', 'all', '--stdio', 's'], VERSION),
    ).toMatchObject({ command: 'baseline', revisions: expect.any(Array) });
    expect((await parseArgs(['--stdio', 's'], VERSION))!.revisions).toBeUndefined();
    await expect(parseArgs(['--revisions', '2025-11-24', '--stdio', 's'], VERSION)).rejects.toThrow(
      '--revisions: unknown revision "2025-11-24" (choose all, or from 2026-07-28, 2025-11-25, 2025-06-18, ' +
        '2025-03-26, 2024-11-05)',
    );
    await expect(
      parseArgs(['--revisions', 'all', '--protocol-version', '2025-06-18', '--stdio', 's'], VERSION),
    ).rejects.toThrow(/leave out --protocol-version/);
    // --spec was renamed --protocol-version: the old name is still an unknown argument, and the error names the new
    // one.
    await expect(parseArgs(['--spec', '2025-11-25', '--stdio', 's'], VERSION)).rejects.toThrow(
      'Unknown argument: spec (--spec is now --protocol-version)',
    );
    await expect(parseArgs(['--bogus', '1', '--stdio', 's'], VERSION)).rejects.toThrow(/^Unknown argument: bogus$/);
    await expect(parseArgs(['--revisions', 'all', '--from-snapshot', 'f.json'], VERSION)).rejects.toThrow(
      /needs a live target/,
    );
    await expect(parseArgs(['snapshot', '--revisions', 'all', '--stdio', 's'], VERSION)).rejects.toThrow(
      /goes with an audit/,
    );
    await expect(parseArgs(['--revisions', ',', '--stdio', 's'], VERSION)).rejects.toThrow(/needs all or a list/);
  });

  it('--http-connections: --concurrency connections for a --url target by default, 1 for any other; as given when given', async () => {
    const url = ['--url', 'http://127.0.0.1:1/mcp'];
    expect(await parseArgs(url, VERSION)).toMatchObject({ httpConnections: 4, concurrency: 4 });
    expect((await parseArgs(url, VERSION))!.httpConnectionsGiven).toBeUndefined();
    expect(await parseArgs([...url, '--concurrency', '7'], VERSION)).toMatchObject({ httpConnections: 7 });
    expect(await parseArgs([...url, '--concurrency', '100'], VERSION)).toMatchObject({ httpConnections: 32 });
    expect(await parseArgs([...url, '--http-connections', '1'], VERSION)).toMatchObject({
      httpConnections: 1,
      httpConnectionsGiven: 1,
    });
    expect(await parseArgs([...url, '--concurrency', '2', '--http-connections', '6'], VERSION)).toMatchObject({
      httpConnections: 6,
      httpConnectionsGiven: 6,
    });
    expect(await parseArgs(['--stdio', 's', '--concurrency', '8'], VERSION)).toMatchObject({ httpConnections: 1 });
    await expect(parseArgs(['--stdio', 's', '--http-connections', '2'], VERSION)).rejects.toThrow(
      '--http-connections applies to a --url target only',
    );
  });

  it('without a terminal a target must be named; on one, none means the bundled server', async () => {
    await expect(parseArgs(['--checks', 'a.*'], VERSION, { terminal: { interactive: false } })).rejects.toThrow(
      'name a target: --stdio, --url or --from-snapshot (or --reference-server)',
    );
    expect(await parseArgs(['--checks', 'a.*'], VERSION, { terminal: { interactive: true } })).toMatchObject({
      stdio: undefined,
      referenceServer: false,
    });
    expect(await parseArgs(['--list'], VERSION, { terminal: { interactive: false } })).toMatchObject({ list: true });
  });

  it('fleet: host files, --jobs (default: the cores), --shard i/n, --allow-tools server:tool; nothing of one target', async () => {
    const fleet = await parseArgs(
      [
        'fleet',
        'a.json',
        'b.json',
        '--shard',
        '2/3',
        '--allow-tools',
        'gh:search,gh:list,mem:read',
        '--fail-on-unavailable',
      ],
      VERSION,
    );
    expect(fleet).toMatchObject({ command: 'fleet', reporters: ['console', 'json', 'junit'], allowTools: [] });
    expect(fleet!.fleet).toMatchObject({
      files: ['a.json', 'b.json'],
      shard: { index: 2, count: 3 },
      failOnUnavailable: true,
      discover: false,
      audit: false,
    });
    expect(fleet!.fleet!.allowTools).toEqual({ gh: ['search', 'list'], mem: ['read'] });
    expect(fleet!.fleet!.jobs).toBeGreaterThanOrEqual(1);
    expect((await parseArgs(['fleet', '--discover', '--jobs', '1'], VERSION))!.fleet).toMatchObject({
      files: [],
      discover: true,
      jobs: 1,
    });
    expect((await parseArgs(['fleet', 'a.json', '--allow-all-tools'], VERSION))!.allowTools).toBe('all');
    expect(await parseArgs(['fleet', 'a.json', '--http-connections', '2'], VERSION)).toMatchObject({
      httpConnectionsGiven: 2,
    });
    expect((await parseArgs(['--stdio', 's'], VERSION))!.reporters).toEqual(['console', 'json', 'junit']);
    await expect(parseArgs(['fleet'], VERSION)).rejects.toThrow(/fleet needs host config files .* or --discover/);
    await expect(parseArgs(['fleet', 'a.json', '--allow-tools', 'search'], VERSION)).rejects.toThrow(
      /server:tool, got "search"/,
    );
    await expect(parseArgs(['fleet', 'a.json', '--shard', '4/3'], VERSION)).rejects.toThrow(
      /--shard must look like i\/n/,
    );
    await expect(parseArgs(['fleet', 'a.json', '--shard', '0/3'], VERSION)).rejects.toThrow(/--shard/);
    await expect(parseArgs(['fleet', 'a.json', '--jobs', '0'], VERSION)).rejects.toThrow(/--jobs/);
    await expect(parseArgs(['fleet', 'a.json', '--stdio', 'node s.js'], VERSION)).rejects.toThrow(
      /--stdio does not go with fleet/,
    );
    await expect(parseArgs(['fleet', 'a.json', '--header', 'A: b'], VERSION)).rejects.toThrow(
      /--header does not go with fleet/,
    );
    await expect(parseArgs(['fleet', 'a.json', '--reporter', 'console,github'], VERSION)).rejects.toThrow(/not github/);
    await expect(parseArgs(['fleet', 'a.json', '--audit'], VERSION)).rejects.toThrow(/--audit goes with --discover/);
    await expect(parseArgs(['--stdio', 's', '--jobs', '2'], VERSION)).rejects.toThrow(
      /--jobs goes with the fleet command/,
    );
  });

  it('fleet: --lock compares with a fleet lock, --lock-write writes one over the whole fleet', async () => {
    expect(await parseArgs(['fleet', 'a.json', '--lock', 'fleet.lock.json'], VERSION)).toMatchObject({
      lock: 'fleet.lock.json',
    });
    expect((await parseArgs(['fleet', 'a.json', '--lock-write', 'fleet.lock.json'], VERSION))!.fleet).toMatchObject({
      lockWrite: 'fleet.lock.json',
    });
    await expect(parseArgs(['fleet', 'a.json', '--lock', 'a', '--lock-write', 'b'], VERSION)).rejects.toThrow(
      /choose one/,
    );
    await expect(parseArgs(['fleet', 'a.json', '--lock-write', 'b', '--shard', '1/2'], VERSION)).rejects.toThrow(
      /--lock-write needs every server/,
    );
    await expect(parseArgs(['fleet', 'a.json', '--lock-write', ''], VERSION)).rejects.toThrow(
      /--lock-write needs a file/,
    );
    await expect(parseArgs(['--stdio', 's', '--lock-write', 'b'], VERSION)).rejects.toThrow(
      /--lock-write goes with the fleet command/,
    );
  });

  it('--snapshot-out: an audit of one live target only', async () => {
    expect(await parseArgs(['--stdio', 's', '--snapshot-out', 'tools.json'], VERSION)).toMatchObject({
      snapshotOut: 'tools.json',
    });
    await expect(parseArgs(['--from-snapshot', 'a.json', '--snapshot-out', 'b.json'], VERSION)).rejects.toThrow(
      /--snapshot-out goes with an audit of one live target/,
    );
    await expect(
      parseArgs(['--revisions', 'all', '--stdio', 's', '--snapshot-out', 'b.json'], VERSION),
    ).rejects.toThrow(/--snapshot-out goes with/);
    await expect(parseArgs(['snapshot', '--stdio', 's', '--snapshot-out', 'b.json'], VERSION)).rejects.toThrow(
      /--snapshot-out goes with/,
    );
  });

  it('--cwd: the working directory of a --stdio target only', async () => {
    expect(await parseArgs(['--stdio', 's', '--cwd', '/srv'], VERSION)).toMatchObject({ cwd: '/srv' });
    await expect(parseArgs(['--url', 'http://127.0.0.1:1/mcp', '--cwd', '/srv'], VERSION)).rejects.toThrow(
      /--cwd applies to a --stdio target only/,
    );
  });

  it('still reports usage errors through yargs', async () => {
    await expect(parseArgs(['--no-such-option'], VERSION)).rejects.toThrow(UsageError);
    await expect(parseArgs(['--protocol-version', '2024-01-01'], VERSION)).rejects.toThrow(/Invalid values/);
    await expect(parseArgs(['--stdio', 'a', '--url', 'http://x'], VERSION)).rejects.toThrow(/mutually exclusive/);
  });
});

describe('usage errors a user makes every day', () => {
  it('an empty --reporter is a usage error, not a run that says nothing', async () => {
    for (const argv of [
      ['--reporter', '', '--stdio', 's'],
      ['--reporter', ' , ', '--stdio', 's'],
      ['fleet', 'x.json', '--reporter', ''],
      ['client', '--command', 'c', '--reporter', ''],
    ]) {
      for (const quick of [true, false]) {
        await expect(parseArgs([...argv], VERSION, { quick }), argv.join(' ')).rejects.toThrow(
          /^--reporter needs at least one of console, json, junit, sarif, markdown, html, github, got "/,
        );
      }
    }
  });

  it('an unknown option gets the nearest one of its command: a typo, a swap, a cut-off name', async () => {
    const error = async (argv: string[]) => (await settle(() => parseArgs(argv, VERSION))) as { usageError: string };
    expect(await error(['--stdoi', 'node s.js'])).toEqual({
      usageError: 'Unknown argument: stdoi (did you mean --stdio?)',
    });
    expect(await error(['--stdio', 's', '--timout', '5'])).toEqual({
      usageError: 'Unknown argument: timout (did you mean --timeout?)',
    });
    expect(await error(['--url', 'http://x/mcp', '--headr', 'A: b'])).toEqual({
      usageError: 'Unknown argument: headr (did you mean --header?)',
    });
    expect(await error(['client', '--comand', 'node c.js'])).toEqual({
      usageError: 'Unknown argument: comand (did you mean --command?)',
    });
    expect(await error(['fleet', 'x.json', '--fail-on-unavail'])).toEqual({
      usageError: 'Unknown argument: fail-on-unavail (did you mean --fail-on-unavailable?)',
    });
    // Near an option of another command only: which command's.
    expect(await error(['--stdio', 's', '--fail-on-unavail'])).toEqual({
      usageError:
        'Unknown argument: fail-on-unavail (did you mean --fail-on-unavailable, an option of the fleet command?)',
    });
    expect(await error(['fleet', 'x.json', '--stdoi', 's'])).toEqual({
      usageError:
        'Unknown argument: stdoi (did you mean --stdio, an option of the run, snapshot, baseline and lock commands?)',
    });
    // Two at once, each with its own; the camel-case twin yargs adds is not repeated.
    expect(await error(['--std-oi', 's', '--fail-onn', 'must'])).toEqual({
      usageError: 'Unknown arguments: std-oi, fail-onn (did you mean --stdio for --std-oi; --fail-on for --fail-onn?)',
    });
    // A word near a command.
    expect((await error(['flet', 'x.json'])).usageError).toBe(
      'Unknown arguments: flet, x.json (did you mean the fleet command for flet?)',
    );
    // Nothing near: the message as yargs says it; a renamed option still names its new name.
    expect(await error(['--bogus', '1', '--stdio', 's'])).toEqual({ usageError: 'Unknown argument: bogus' });
    expect(await error(['--spec', '2025-11-25', '--stdio', 's'])).toEqual({
      usageError: 'Unknown argument: spec (--spec is now --protocol-version)',
    });
    expect(withSuggestions('Invalid values: Argument: transport', 'client')).toBe(
      'Invalid values: Argument: transport',
    );
  });

  it('each command has its own options, and its usage errors point to its own --help', () => {
    const target = ['stdio', 'url', 'env', 'header', 'cwd', 'from-snapshot', 'reference-server'];
    expect(commandOptions('fleet')).toEqual(
      expect.arrayContaining([
        'jobs',
        'shard',
        'discover',
        'fail-on-unavailable',
        'allow-tools',
        'lock-write',
        'reporter',
      ]),
    );
    expect(commandOptions('fleet')).not.toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^(${target.join('|')}|command|scenario|baseline|revisions)$`)),
      ]),
    );
    expect(commandOptions('client')).toEqual(
      expect.arrayContaining(['command', 'scenario', 'transport', 'checks', 'reporter', 'baseline', 'max-duration']),
    );
    expect(
      commandOptions('client').filter((name) => [...target, 'jobs', 'allow-tools', 'sandbox', 'lock'].includes(name)),
    ).toEqual([]);
    expect(commandOptions('run')).toEqual(expect.arrayContaining(target));
    expect(
      commandOptions('run').filter((name) => ['jobs', 'discover', 'command', 'scenario', 'write'].includes(name)),
    ).toEqual([]);
    expect(commandOptions('baseline')).toContain('write');
    expect([
      helpPointer(['fleet', 'x.json']),
      helpPointer(['client', '--command', 'c']),
      helpPointer(['--stdio', 's']),
      helpPointer([]),
    ]).toEqual(['fleet --help', 'client --help', '--help', '--help']);
  });

  it('client: the options of a server audit are usage errors, not silently ignored', async () => {
    for (const extra of [['--env', 'A=1'], ['--header', 'X-A: b'], ['--allow-all-tools'], ['--sandbox']]) {
      await expect(parseArgs(['client', '--command', 'c', ...extra], VERSION), extra.join(' ')).rejects.toThrow(
        /goes with a server audit \(--stdio or --url\), not the client command/,
      );
    }
  });
});

/** The options, or the usage error's message: both parses must end the same way. */
async function settle(parse: () => Promise<unknown>): Promise<unknown> {
  try {
    return await parse();
  } catch (error) {
    if (error instanceof UsageError) return { usageError: error.message };
    throw error;
  }
}

describe('--hosts, --fail-on-host and --server-name', () => {
  it('reads all or host names, in the order of HOST_NAMES, and adds --fail-on-host hosts to those judged', async () => {
    expect((await parseArgs(['--hosts', 'all', '--stdio', 's'], VERSION)).hosts).toEqual({
      names: ['claude', 'openai', 'gemini', 'cursor', 'vscode'],
      failOn: [],
    });
    expect((await parseArgs(['--hosts', 'VSCode, claude', '--stdio', 's'], VERSION)).hosts).toEqual({
      names: ['claude', 'vscode'],
      failOn: [],
    });
    expect(
      (await parseArgs(['--fail-on-host', 'gemini', '--server-name', 'gh', '--stdio', 's'], VERSION)).hosts,
    ).toEqual({ names: ['gemini'], failOn: ['gemini'], serverName: 'gh' });
    expect((await parseArgs(['--stdio', 's'], VERSION)).hosts).toBeUndefined();
  });

  it('refuses an unknown host, a --server-name without hosts, and hosts outside an audit or a fleet', async () => {
    await expect(parseArgs(['--hosts', 'chatgpt', '--stdio', 's'], VERSION)).rejects.toThrow(
      '--hosts: unknown host "chatgpt" (choose from all, claude, openai, gemini, cursor, vscode)',
    );
    await expect(parseArgs(['--server-name', 'gh', '--stdio', 's'], VERSION)).rejects.toThrow(
      '--server-name goes with --hosts',
    );
    await expect(parseArgs(['snapshot', '--hosts', 'all', '--stdio', 's'], VERSION)).rejects.toThrow(
      /go with an audit or a fleet, not snapshot/,
    );
    await expect(parseArgs(['fleet', 'mcp.json', '--hosts', 'all', '--server-name', 'gh'], VERSION)).rejects.toThrow(
      /server-name/,
    );
  });
});
