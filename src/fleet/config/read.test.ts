import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetEntry } from '../../model/fleet.js';
import { readFleetFiles } from './read.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'fleet');
const fixture = (...parts: string[]) => join(FIXTURES, ...parts);
const withoutSource = (entries: FleetEntry[]) => entries.map(({ source: _, ...rest }) => rest);

/**
 * The environment a CI job would give the fleet: the secrets every host file refers to, each under its own convention.
 */
const ENV = {
  GITHUB_TOKEN: 'ghp-fixture-token',
  MCP_INPUT_GITHUB_TOKEN: 'ghp-fixture-token',
  CONTEXT7_API_KEY: 'ctx7-fixture-key',
};

const FILESYSTEM = {
  name: 'filesystem',
  transport: 'stdio',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/shared'],
};
const GITHUB = {
  name: 'github',
  transport: 'stdio',
  command: 'docker',
  args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
  env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp-fixture-token' },
};
const CONTEXT7 = {
  name: 'context7',
  transport: 'http',
  url: 'https://mcp.context7.com/mcp',
  headers: { CONTEXT7_API_KEY: 'ctx7-fixture-key' },
};

describe('one fleet written in each host format', () => {
  it.each([
    ['Claude Code', ['claude-code', '.mcp.json']],
    ['Cursor', ['cursor', '.cursor', 'mcp.json']],
    ['VS Code (servers, inputs, a comment)', ['vscode', '.vscode', 'mcp.json']],
    ['Windsurf (serverUrl)', ['windsurf', 'mcp_config.json']],
  ])('%s', (_, parts) => {
    const path = fixture(...parts);
    const { entries, problems } = readFleetFiles([path], ENV);
    expect(problems).toEqual([]);
    expect(withoutSource(entries)).toEqual([FILESYSTEM, GITHUB, CONTEXT7]);
    expect(entries.map((e) => e.source)).toEqual([path, path, path]);
  });

  // Claude Desktop's file starts local (stdio) servers only; remote ones are added as connectors in the app.
  it('Claude Desktop: the same local servers', () => {
    const { entries, problems } = readFleetFiles([fixture('claude-desktop', 'claude_desktop_config.json')], ENV);
    expect(problems).toEqual([]);
    expect(withoutSource(entries)).toEqual([FILESYSTEM, GITHUB]);
  });

  it('without the secrets, every placeholder is named and nothing is guessed', () => {
    const { entries } = readFleetFiles(
      [fixture('vscode', '.vscode', 'mcp.json'), fixture('claude-code', '.mcp.json')],
      {},
    );
    expect(entries.map((e) => [e.name, e.missingSecrets])).toEqual([
      ['filesystem (' + fixture('vscode', '.vscode', 'mcp.json') + ')', undefined],
      ['github (' + fixture('vscode', '.vscode', 'mcp.json') + ')', ['input:github-token']],
      ['context7 (' + fixture('vscode', '.vscode', 'mcp.json') + ')', ['CONTEXT7_API_KEY']],
      ['filesystem (' + fixture('claude-code', '.mcp.json') + ')', undefined],
      ['github (' + fixture('claude-code', '.mcp.json') + ')', ['GITHUB_TOKEN']],
      ['context7 (' + fixture('claude-code', '.mcp.json') + ')', ['CONTEXT7_API_KEY']],
    ]);
    expect(entries[1]!.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github-token}' });
    expect(entries[5]!.headers).toEqual({ CONTEXT7_API_KEY: '${CONTEXT7_API_KEY}' });
  });
});

describe('cases', () => {
  const read = (name: string, env: Record<string, string> = {}) => readFleetFiles([fixture('cases', name)], env);

  it('disabled entries: disabled: true and enabled: false', () => {
    const { entries, problems } = read('disabled.json');
    expect(problems).toEqual([]);
    expect(withoutSource(entries)).toEqual([
      { name: 'off', transport: 'stdio', command: 'node', args: ['off.js'], disabled: true },
      { name: 'not-enabled', transport: 'http', url: 'https://not-enabled.example.com/mcp', disabled: true },
      { name: 'on', transport: 'stdio', command: 'node', args: ['on.js'] },
    ]);
  });

  it('missing secrets: an input without MCP_INPUT_<ID> or default, unset variables; an input default is used', () => {
    const { entries } = read('missing-secret.json', { TENANT: 'acme' });
    expect(withoutSource(entries)).toEqual([
      {
        name: 'needs-input',
        transport: 'stdio',
        command: 'node',
        args: ['server.js', '--region', 'eu-west-1'],
        env: { API_KEY: '${input:api-key}' },
        missingSecrets: ['input:api-key'],
      },
      {
        name: 'needs-env',
        transport: 'http',
        url: 'https://acme.example.com/mcp',
        headers: { Authorization: 'Bearer ${env:API_TOKEN}', 'X-Team': '${TEAM}' },
        missingSecrets: ['API_TOKEN', 'TEAM'],
      },
    ]);
  });

  it('missing secrets resolve once the environment has them', () => {
    const { entries } = read('missing-secret.json', {
      TENANT: 'acme',
      MCP_INPUT_API_KEY: 'k',
      MCP_INPUT_REGION: 'us-east-2',
      API_TOKEN: 't',
      TEAM: 'core',
    });
    expect(withoutSource(entries)).toEqual([
      {
        name: 'needs-input',
        transport: 'stdio',
        command: 'node',
        args: ['server.js', '--region', 'us-east-2'],
        env: { API_KEY: 'k' },
      },
      {
        name: 'needs-env',
        transport: 'http',
        url: 'https://acme.example.com/mcp',
        headers: { Authorization: 'Bearer t', 'X-Team': 'core' },
      },
    ]);
  });

  it('a url whose host is still a placeholder is not judged as a URL', () => {
    const { entries } = read('missing-secret.json');
    expect(entries[1]).toMatchObject({
      url: 'https://${env:TENANT}.example.com/mcp',
      missingSecrets: ['TENANT', 'API_TOKEN', 'TEAM'],
    });
    expect(entries[1]!.invalid).toBeUndefined();
  });

  it('JSONC: comments and trailing commas, strings left whole', () => {
    const { entries, problems } = read('comments.jsonc');
    expect(problems).toEqual([]);
    expect(withoutSource(entries)).toEqual([
      { name: 'memory', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
      {
        name: 'docs',
        transport: 'sse',
        url: 'http://localhost:3001/sse',
        headers: { 'X-Note': '/* not a comment either */' },
      },
    ]);
  });

  it('malformed entries are listed with one line of why; scalars in args and env are taken as written', () => {
    const { entries, problems } = read('malformed-entry.json');
    expect(problems).toEqual([]);
    expect(withoutSource(entries)).toEqual([
      { name: 'a-string', transport: 'stdio', invalid: 'the entry is not an object' },
      { name: 'args-not-a-list', transport: 'stdio', command: 'node', invalid: '"args" must be a list of strings' },
      { name: 'nothing-to-run', transport: 'stdio', invalid: 'neither "command" nor "url"' },
      {
        name: 'command-and-url',
        transport: 'stdio',
        command: 'node',
        invalid: 'both "command" and "url", and no "type" to choose',
      },
      {
        name: 'not-http',
        transport: 'http',
        url: 'ftp://example.com/mcp',
        invalid: '"url" is not an http(s) URL: ftp://example.com/mcp',
      },
      {
        name: 'env-nested',
        transport: 'stdio',
        command: 'node',
        invalid: '"env" must be an object of names to strings',
      },
      { name: 'empty-command', transport: 'stdio', command: '  ', invalid: '"command" is empty' },
      {
        name: 'fine',
        transport: 'stdio',
        command: 'node',
        args: ['server.js', '8080', 'true'],
        env: { PORT: '8080' },
        cwd: '/srv/app',
      },
    ]);
  });

  it('types: unknown ones and contradictions are invalid; the Streamable HTTP spellings and any case are read', () => {
    const { entries } = read('unknown-type.json');
    expect(withoutSource(entries)).toEqual([
      {
        name: 'websocket',
        transport: 'http',
        url: 'ws://localhost:3000/mcp',
        invalid:
          'unknown type "ws" (this tool speaks stdio, http and sse); "url" is not an http(s) URL: ' +
          'ws://localhost:3000/mcp',
      },
      {
        name: 'numeric-type',
        transport: 'stdio',
        command: 'node',
        invalid: 'unknown type 1 (this tool speaks stdio, http and sse)',
      },
      { name: 'stdio-without-command', transport: 'stdio', invalid: 'type "stdio" needs a "command"' },
      { name: 'http-without-url', transport: 'http', invalid: 'type "http" needs a "url"' },
      { name: 'cursor-spelling', transport: 'http', url: 'http://localhost:3000/mcp' },
      { name: 'cline-spelling', transport: 'http', url: 'http://localhost:3001/mcp' },
      { name: 'sse', transport: 'sse', url: 'http://localhost:3002/sse' },
    ]);
  });

  it('a file that is not JSON, not a host config, or missing: one line each, the other files still read', () => {
    const missing = fixture('cases', 'nowhere.json');
    const { entries, problems } = readFleetFiles(
      [
        fixture('cases', 'not-json.json'),
        fixture('cases', 'no-servers.json'),
        missing,
        fixture('cases', 'disabled.json'),
      ],
      {},
    );
    expect(problems).toEqual([
      `${fixture('cases', 'not-json.json')}: not valid JSON or JSONC: expected "," or "}", found "\\"" at line ` +
        `4 column 5`,
      `${fixture('cases', 'no-servers.json')}: no "mcpServers" or "servers" object`,
      `${missing}: file not found`,
    ]);
    expect(entries.map((e) => e.name)).toEqual(['off', 'not-enabled', 'on']);
  });
});

describe('reading files from memory', () => {
  const files = (contents: Record<string, string>) => (path: string) => {
    const text = contents[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  };
  const server = (command: string) => JSON.stringify({ mcpServers: { github: { command }, only: { command: 'x' } } });

  it('a name two files share becomes "name (file)", home shown as ~, in file order; a path given twice is read once', () => {
    const read = files({ '/home/u/.cursor/mcp.json': server('a'), '/work/p/.mcp.json': server('b') });
    const { entries } = readFleetFiles(
      ['/home/u/.cursor/mcp.json', '/work/p/.mcp.json', '/home/u/.cursor/mcp.json'],
      { HOME: '/home/u' },
      read,
    );
    expect(entries.map((e) => [e.name, e.command, e.source])).toEqual([
      ['github (~/.cursor/mcp.json)', 'a', '/home/u/.cursor/mcp.json'],
      ['only (~/.cursor/mcp.json)', 'x', '/home/u/.cursor/mcp.json'],
      ['github (/work/p/.mcp.json)', 'b', '/work/p/.mcp.json'],
      ['only (/work/p/.mcp.json)', 'x', '/work/p/.mcp.json'],
    ]);
  });

  it("~/.claude.json: user servers, and the project's own servers replacing those of the same name; no servers is not a problem", () => {
    const state = {
      numStartups: 3,
      mcpServers: { shared: { command: 'user-shared' }, user: { command: 'user-only' } },
      projects: {
        '/work/p': {
          mcpServers: { shared: { command: 'project-shared' }, local: { url: 'http://127.0.0.1:9000/mcp' } },
        },
        '/work/q': { mcpServers: { other: { command: 'q' } } },
      },
    };
    const read = files({ '/home/u/.claude.json': JSON.stringify(state), '/home/v/.claude.json': '{"numStartups": 1}' });
    const inProject = readFleetFiles(['/home/u/.claude.json'], {}, read, { cwd: '/work/p' });
    expect(inProject.entries.map((e) => [e.name, e.command ?? e.url])).toEqual([
      ['user', 'user-only'],
      ['shared', 'project-shared'],
      ['local', 'http://127.0.0.1:9000/mcp'],
    ]);
    expect(readFleetFiles(['/home/u/.claude.json'], {}, read).entries.map((e) => e.name)).toEqual(['shared', 'user']);
    expect(readFleetFiles(['/home/v/.claude.json'], {}, read, { cwd: '/work/p' })).toEqual({
      entries: [],
      problems: [],
    });
  });

  it('${workspaceFolder}: the folder holding .vscode, or the cwd given; ${userHome} and ${/}', () => {
    const config = JSON.stringify({
      servers: {
        s: {
          type: 'stdio',
          command: '${userHome}/bin/s',
          args: ['${workspaceFolder}${/}data', '${workspaceFolderBasename}'],
        },
      },
    });
    const read = files({ '/work/p/.vscode/mcp.json': config });
    const derived = readFleetFiles(['/work/p/.vscode/mcp.json'], { HOME: '/home/u' }, read).entries[0];
    expect([derived?.command, derived?.args]).toEqual(['/home/u/bin/s', ['/work/p/data', 'p']]);
    const given = readFleetFiles(['/work/p/.vscode/mcp.json'], { HOME: '/home/u' }, read, { cwd: '/elsewhere/q' })
      .entries[0];
    expect(given?.args).toEqual(['/elsewhere/q/data', 'q']);
    expect(readFleetFiles(['/work/p/.vscode/mcp.json'], {}, read).entries[0]?.missingSecrets).toEqual(['userHome']);
  });

  it('Windows paths: the workspace folder, ${/} and ~ for USERPROFILE follow them', () => {
    const config = JSON.stringify({
      servers: { s: { type: 'stdio', command: 'node', args: ['${workspaceFolder}${/}server.js'] } },
    });
    const paths = ['C:\\Users\\u\\p\\.vscode\\mcp.json', 'D:\\q\\.vscode\\mcp.json'];
    const read = files(Object.fromEntries(paths.map((p) => [p, config])));
    const { entries } = readFleetFiles(paths, { USERPROFILE: 'C:\\Users\\u' }, read);
    expect(entries.map((e) => [e.name, e.args])).toEqual([
      ['s (~\\p\\.vscode\\mcp.json)', ['C:\\Users\\u\\p\\server.js']],
      ['s (D:\\q\\.vscode\\mcp.json)', ['D:\\q\\server.js']],
    ]);
  });

  it('envFile: its variables under those of env; a file that cannot be read is a missing secret', () => {
    const config = (envFile: string) =>
      JSON.stringify({ servers: { s: { type: 'stdio', command: 'node', envFile, env: { B: 'from-env' } } } });
    const read = files({
      '/work/p/.vscode/mcp.json': config('${workspaceFolder}/.env'),
      '/work/q/.vscode/mcp.json': config('.env'),
      '/work/p/.env': '# secrets\nexport A=from-file\nB=overridden\nC="quoted # kept"\n',
    });
    expect(readFleetFiles(['/work/p/.vscode/mcp.json'], {}, read).entries[0]?.env).toEqual({
      A: 'from-file',
      B: 'from-env',
      C: 'quoted # kept',
    });
    const missing = readFleetFiles(['/work/q/.vscode/mcp.json'], {}, read).entries[0];
    expect([missing?.env, missing?.missingSecrets]).toEqual([{ B: 'from-env' }, ['envFile:.env']]);
  });

  it('placeholders this tool cannot resolve make the entry invalid, naming them', () => {
    const read = files({
      '/p/mcp.json': JSON.stringify({
        servers: { s: { type: 'stdio', command: '${command:pick}', args: ['${config:x.y}'] } },
      }),
    });
    expect(readFleetFiles(['/p/mcp.json'], {}, read).entries[0]?.invalid).toBe(
      'unsupported placeholder ${command:pick}; unsupported placeholder ${config:x.y}',
    );
  });

  it('a server map that is not an object, a document that is not an object, an unreadable file', () => {
    const read = (path: string) => {
      if (path === '/denied.json') throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      return path === '/list.json' ? '[]' : '{"mcpServers": []}';
    };
    expect(readFleetFiles(['/map.json', '/list.json', '/denied.json'], {}, read).problems).toEqual([
      '/map.json: "mcpServers" is not an object of servers',
      '/list.json: not a JSON object',
      '/denied.json: cannot read the file (EACCES)',
    ]);
  });

  it('a "__proto__" server name is an ordinary entry', () => {
    const read = files({ '/p.json': '{"mcpServers": {"__proto__": {"command": "node"}}}' });
    expect(withoutSource(readFleetFiles(['/p.json'], {}, read).entries)).toEqual([
      { name: '__proto__', transport: 'stdio', command: 'node' },
    ]);
  });
});
