import { describe, expect, it } from 'vitest';
import type { FleetEntry } from '../../model/fleet.js';
import { splitCommandLine } from '../../transport/command-line.js';
import { inShard, invocationOf, safeNames } from './plan.js';

const FLAGS = { common: ['--timeout', '5000'], allowTools: { gh: ['search', 'list'] } };

describe('invocationOf: each server audited as a single audit would be', () => {
  it('stdio: its command line, its cwd (relative to ours), its env in the private config only', () => {
    const entry: FleetEntry = {
      name: 'gh',
      source: 'a.json',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'server github', '--verbose'],
      env: { GITHUB_TOKEN: 'ghp_SECRETVALUE1234' },
      cwd: 'proj',
    };
    const { args, config } = invocationOf(entry, FLAGS, '/out/servers/gh', '/home/me');
    expect(splitCommandLine(args[args.indexOf('--stdio') + 1]!)).toEqual(['npx', '-y', 'server github', '--verbose']);
    expect(args[args.indexOf('--cwd') + 1]).toBe('/home/me/proj');
    expect(invocationOf(entry, { ...FLAGS, httpConnections: 4 }, '/o', '/h').args).not.toContain('--http-connections');
    expect(args).toEqual(
      expect.arrayContaining([
        '--timeout',
        '5000',
        '--allow-tools',
        'search,list',
        '--reporter',
        'json',
        '--output-dir',
        '/out/servers/gh',
      ]),
    );
    expect(config).toEqual({ env: { GITHUB_TOKEN: 'ghp_SECRETVALUE1234' } });
    expect(args.join(' ')).not.toContain('SECRETVALUE');
  });

  it('http and sse: the URL (the audit finds HTTP+SSE behind it), headers in the private config only, no --allow-tools of another server', () => {
    for (const transport of ['http', 'sse'] as const) {
      const entry: FleetEntry = {
        name: 'remote',
        source: 'a.json',
        transport,
        url: 'https://mcp.example/sse',
        headers: { Authorization: 'Bearer tok_SECRET_99' },
      };
      const { args, config } = invocationOf(entry, FLAGS, '/out/servers/remote', '/home/me');
      expect(args.slice(0, 2)).toEqual(['--url', 'https://mcp.example/sse']);
      expect(invocationOf(entry, { ...FLAGS, httpConnections: 1 }, '/o', '/h').args.slice(0, 4)).toEqual([
        '--url',
        'https://mcp.example/sse',
        '--http-connections',
        '1',
      ]);
      expect(args).not.toContain('--allow-tools');
      expect(args).not.toContain('--cwd');
      expect(config).toEqual({ header: { Authorization: 'Bearer tok_SECRET_99' } });
      expect(args.join(' ')).not.toContain('SECRET');
    }
  });
});

describe('inShard and safeNames', () => {
  it('--shard i/n takes every n-th entry from the i-th: the shards cover the fleet once', () => {
    const positions = [...Array(10).keys()];
    const shards = [1, 2, 3].map((index) => positions.filter((p) => inShard(p, { index, count: 3 })));
    expect(shards).toEqual([
      [0, 3, 6, 9],
      [1, 4, 7],
      [2, 5, 8],
    ]);
    expect(positions.every((p) => inShard(p, undefined))).toBe(true);
  });

  it('folder names are safe and unique, whatever the server names', () => {
    expect(safeNames(['github', 'my server', '../../etc', 'GitHub', '', 'a/b', 'a-b'])).toEqual([
      'github',
      'my-server',
      'etc',
      'GitHub-2',
      'server',
      'a-b',
      'a-b-2',
    ]);
  });
});
