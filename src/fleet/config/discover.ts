import { posix, win32 } from 'node:path';

export interface DiscoverOptions {
  /** `process.platform`: 'win32' and 'darwin' have their own folders; every other platform is read as Linux. */
  platform: string;
  home: string;
  cwd: string;
  /** APPDATA (Windows) and XDG_CONFIG_HOME (Linux) move the application folders. */
  env: Record<string, string | undefined>;
  exists: (path: string) => boolean;
}

export type FleetHost = 'Claude Desktop' | 'Claude Code' | 'Cursor' | 'VS Code' | 'Windsurf';

export interface FleetFileCandidate {
  host: FleetHost;
  /** project: under the working directory; user: the user's own configuration. */
  scope: 'project' | 'user';
  path: string;
}

/**
 * Where the hosts keep their MCP servers, project files first. As read in each host's documentation:
 * - VS Code (code.visualstudio.com/docs/copilot/reference/mcp-configuration): `.vscode/mcp.json` in the workspace and
 *   `mcp.json` in the user profile; the page does not spell out that path. Code/User under the application data
 *   folder is the default profile's folder, where its settings.json lives.
 * - Windsurf (docs.windsurf.com/windsurf/cascade/mcp): `~/.codeium/windsurf/mcp_config.json`.
 * - Cursor (cursor.com/docs/mcp, as guides quote it): `.cursor/mcp.json` in the project, `~/.cursor/mcp.json` for all.
 * - Claude Code (code.claude.com/docs/en/mcp, as guides quote it): `.mcp.json` in the project, `~/.claude.json` for the
 *   user; its local scope, `projects[<path>]` in the same file, is read by readFleetFiles given a cwd.
 * - Claude Desktop: ~/Library/Application Support/Claude (macOS), %APPDATA%\Claude (Windows), as every setup guide
 *   gives them; there is no official Linux build, and ~/.config/Claude is where community builds keep the file.
 */
export function fleetFileCandidates({
  platform,
  home,
  cwd,
  env,
}: Omit<DiscoverOptions, 'exists'>): FleetFileCandidate[] {
  const { join } = platform === 'win32' ? win32 : posix;
  const appData =
    platform === 'win32'
      ? env.APPDATA || join(home, 'AppData', 'Roaming')
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : env.XDG_CONFIG_HOME || join(home, '.config');
  return [
    { host: 'Claude Code', scope: 'project', path: join(cwd, '.mcp.json') },
    { host: 'Cursor', scope: 'project', path: join(cwd, '.cursor', 'mcp.json') },
    { host: 'VS Code', scope: 'project', path: join(cwd, '.vscode', 'mcp.json') },
    { host: 'Claude Desktop', scope: 'user', path: join(appData, 'Claude', 'claude_desktop_config.json') },
    { host: 'Claude Code', scope: 'user', path: join(home, '.claude.json') },
    { host: 'Cursor', scope: 'user', path: join(home, '.cursor', 'mcp.json') },
    { host: 'VS Code', scope: 'user', path: join(appData, 'Code', 'User', 'mcp.json') },
    { host: 'Windsurf', scope: 'user', path: join(home, '.codeium', 'windsurf', 'mcp_config.json') },
  ];
}

/** The candidate files that exist, in fleetFileCandidates' order, each once (the working directory may be home). */
export function discoverFleetFiles(options: DiscoverOptions): string[] {
  const paths = fleetFileCandidates(options).map((c) => c.path);
  return [...new Set(paths)].filter((path) => options.exists(path));
}
