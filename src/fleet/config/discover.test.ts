import { describe, expect, it } from 'vitest';
import { discoverFleetFiles, fleetFileCandidates } from './discover.js';

describe('fleetFileCandidates', () => {
  it('Linux', () => {
    expect(
      fleetFileCandidates({ platform: 'linux', home: '/home/u', cwd: '/work/p', env: {} }).map(
        (c) => `${c.host} (${c.scope}): ${c.path}`,
      ),
    ).toEqual([
      'Claude Code (project): /work/p/.mcp.json',
      'Cursor (project): /work/p/.cursor/mcp.json',
      'VS Code (project): /work/p/.vscode/mcp.json',
      'Claude Desktop (user): /home/u/.config/Claude/claude_desktop_config.json',
      'Claude Code (user): /home/u/.claude.json',
      'Cursor (user): /home/u/.cursor/mcp.json',
      'VS Code (user): /home/u/.config/Code/User/mcp.json',
      'Windsurf (user): /home/u/.codeium/windsurf/mcp_config.json',
    ]);
  });

  it('Linux with XDG_CONFIG_HOME', () => {
    const paths = fleetFileCandidates({
      platform: 'linux',
      home: '/home/u',
      cwd: '/work/p',
      env: { XDG_CONFIG_HOME: '/cfg' },
    }).map((c) => c.path);
    expect(paths.filter((p) => p.startsWith('/cfg'))).toEqual([
      '/cfg/Claude/claude_desktop_config.json',
      '/cfg/Code/User/mcp.json',
    ]);
  });

  it('macOS', () => {
    expect(
      fleetFileCandidates({ platform: 'darwin', home: '/Users/u', cwd: '/Users/u/p', env: {} }).map((c) => c.path),
    ).toEqual([
      '/Users/u/p/.mcp.json',
      '/Users/u/p/.cursor/mcp.json',
      '/Users/u/p/.vscode/mcp.json',
      '/Users/u/Library/Application Support/Claude/claude_desktop_config.json',
      '/Users/u/.claude.json',
      '/Users/u/.cursor/mcp.json',
      '/Users/u/Library/Application Support/Code/User/mcp.json',
      '/Users/u/.codeium/windsurf/mcp_config.json',
    ]);
  });

  it('Windows, with APPDATA and without', () => {
    const env = { APPDATA: 'D:\\Roaming' };
    expect(
      fleetFileCandidates({ platform: 'win32', home: 'C:\\Users\\u', cwd: 'C:\\src\\p', env }).map((c) => c.path),
    ).toEqual([
      'C:\\src\\p\\.mcp.json',
      'C:\\src\\p\\.cursor\\mcp.json',
      'C:\\src\\p\\.vscode\\mcp.json',
      'D:\\Roaming\\Claude\\claude_desktop_config.json',
      'C:\\Users\\u\\.claude.json',
      'C:\\Users\\u\\.cursor\\mcp.json',
      'D:\\Roaming\\Code\\User\\mcp.json',
      'C:\\Users\\u\\.codeium\\windsurf\\mcp_config.json',
    ]);
    const paths = fleetFileCandidates({ platform: 'win32', home: 'C:\\Users\\u', cwd: 'C:\\src\\p', env: {} }).map(
      (c) => c.path,
    );
    expect(paths[3]).toBe('C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
  });
});

describe('discoverFleetFiles', () => {
  it('returns the candidates that exist, in order', () => {
    const present = new Set([
      '/home/u/.claude.json',
      '/work/p/.vscode/mcp.json',
      '/home/u/.codeium/windsurf/mcp_config.json',
    ]);
    const asked: string[] = [];
    const exists = (path: string) => (asked.push(path), present.has(path));
    expect(discoverFleetFiles({ platform: 'linux', home: '/home/u', cwd: '/work/p', env: {}, exists })).toEqual([
      '/work/p/.vscode/mcp.json',
      '/home/u/.claude.json',
      '/home/u/.codeium/windsurf/mcp_config.json',
    ]);
    expect(asked).toHaveLength(8);
  });

  it('lists a file once when the working directory is home', () => {
    const exists = (path: string) => path === '/home/u/.cursor/mcp.json';
    expect(discoverFleetFiles({ platform: 'linux', home: '/home/u', cwd: '/home/u', env: {}, exists })).toEqual([
      '/home/u/.cursor/mcp.json',
    ]);
  });

  it('finds nothing where nothing exists', () => {
    expect(
      discoverFleetFiles({ platform: 'darwin', home: '/Users/u', cwd: '/tmp', env: {}, exists: () => false }),
    ).toEqual([]);
  });
});
