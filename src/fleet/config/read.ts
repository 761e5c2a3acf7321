import { readFileSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import type { FleetEntry } from '../../model/fleet.js';
import { isPlainObject, readEntry, type EntryContext } from './entry.js';
import { parseEnvFile } from './env-file.js';
import { parseJsonc } from './jsonc.js';

export type ReadFile = (path: string) => string;

export interface FleetFiles {
  /** Every entry of every file, in file order then map order; a name two files share is made distinct. */
  entries: FleetEntry[];
  /** One line per file that could not be read as a host config (missing, not JSON / JSONC, no server map). */
  problems: string[];
}

export interface ReadFleetOptions {
  /**
   * The project the fleet is read for: `${workspaceFolder}` there, and the `projects[<cwd>]` section of Claude Code's
   * ~/.claude.json. Without it, `${workspaceFolder}` is the folder holding the file's `.vscode` or `.cursor` folder, or
   * the file's own folder, and ~/.claude.json gives its user servers only.
   */
  cwd?: string;
}

const readUtf8: ReadFile = (path) => readFileSync(path, 'utf8');

/**
 * Reads host configuration files into fleet entries. Two maps are known: `mcpServers` (Claude Desktop, Claude Code,
 * Cursor, Windsurf and others) and `servers` with `inputs` (VS Code). Never throws for a file's content.
 */
export function readFleetFiles(
  paths: readonly string[],
  env: Record<string, string | undefined>,
  readFile: ReadFile = readUtf8,
  options: ReadFleetOptions = {},
): FleetFiles {
  const entries: FleetEntry[] = [];
  const problems: string[] = [];
  for (const path of [...new Set(paths)]) {
    const read = readOne(path, env, readFile, options);
    if (typeof read === 'string') problems.push(`${path}: ${read}`);
    else entries.push(...read);
  }
  return { entries: distinctNames(entries, env), problems };
}

function readOne(
  path: string,
  env: Record<string, string | undefined>,
  readFile: ReadFile,
  options: ReadFleetOptions,
): FleetEntry[] | string {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? (error as Error).message})`;
  }
  let document: unknown;
  try {
    document = parseJsonc(text);
  } catch (error) {
    return `not valid JSON or JSONC: ${(error as Error).message}`;
  }
  if (!isPlainObject(document)) return 'not a JSON object';

  const maps = serverMaps(document, path, options.cwd);
  if (typeof maps === 'string') return maps;
  const context = entryContext(path, document, env, readFile, options);
  return maps.map(([name, raw]) => readEntry(name, raw, path, context));
}

/**
 * The entries of a file's server maps, in order. Claude Code's ~/.claude.json is its state file: it may hold no servers
 * at all, and the servers of the project at `cwd` (its "local" scope) replace user servers of the same name there.
 */
function serverMaps(
  document: Record<string, unknown>,
  path: string,
  cwd: string | undefined,
): Array<[string, unknown]> | string {
  const found: Array<[string, unknown]> = [];
  for (const key of ['mcpServers', 'servers'] as const) {
    const map = document[key];
    if (map === undefined) continue;
    if (!isPlainObject(map)) return `"${key}" is not an object of servers`;
    found.push(...Object.entries(map));
  }
  const claudeState = baseName(path) === '.claude.json';
  if (claudeState && cwd !== undefined) {
    const projects = document.projects;
    const project = isPlainObject(projects) ? (projects[cwd] ?? projects[cwd.replace(/\\/g, '/')]) : undefined;
    const local = isPlainObject(project) && isPlainObject(project.mcpServers) ? Object.entries(project.mcpServers) : [];
    const names = new Set(local.map(([name]) => name));
    return [...found.filter(([name]) => !names.has(name)), ...local];
  }
  if (!('mcpServers' in document) && !('servers' in document) && !claudeState)
    return 'no "mcpServers" or "servers" object';
  return found;
}

function entryContext(
  path: string,
  document: Record<string, unknown>,
  env: Record<string, string | undefined>,
  readFile: ReadFile,
  options: ReadFleetOptions,
): EntryContext {
  const style = path.includes('\\') && !path.includes('/') ? win32 : posix;
  const folder = style.dirname(path);
  const workspaceFolder =
    options.cwd ?? (['.vscode', '.cursor'].includes(style.basename(folder)) ? style.dirname(folder) : folder);
  return {
    env,
    workspaceFolder,
    userHome: home(env),
    pathSeparator: style.sep,
    inputDefaults: inputDefaults(document.inputs),
    resolvePath: (file) => (style.isAbsolute(file) ? file : style.join(workspaceFolder, file)),
    readEnvFile: (file) => {
      try {
        return parseEnvFile(readFile(file));
      } catch {
        return undefined;
      }
    },
  };
}

/** VS Code's `inputs`: id → its `default`, when it has one. */
function inputDefaults(inputs: unknown): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  if (!Array.isArray(inputs)) return out;
  for (const input of inputs) {
    if (isPlainObject(input) && typeof input.id === 'string')
      out.set(input.id, typeof input.default === 'string' ? input.default : undefined);
  }
  return out;
}

/** Entries whose name another file also uses become `name (file)`, the file shown with `~` for the home folder. */
function distinctNames(entries: FleetEntry[], env: Record<string, string | undefined>): FleetEntry[] {
  const count = new Map<string, number>();
  for (const e of entries) count.set(e.name, (count.get(e.name) ?? 0) + 1);
  const userHome = home(env);
  const shown = (source: string) =>
    userHome !== undefined && source.startsWith(userHome) && /^[\\/]/.test(source.slice(userHome.length))
      ? `~${source.slice(userHome.length)}`
      : source;
  return entries.map((e) => (count.get(e.name)! > 1 ? { ...e, name: `${e.name} (${shown(e.source)})` } : e));
}

const home = (env: Record<string, string | undefined>) => env.HOME || env.USERPROFILE || undefined;
const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path;
