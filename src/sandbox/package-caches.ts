import { statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { joinCommandLine } from '../transport/command-line.js';

export interface PackageCaches {
  /** Existing cache folders to overlay (their changes are not effects). */
  paths: string[];
  /** What points the package managers at them (HOME is the scratch one inside) and, offline, keeps them off the net. */
  env: Record<string, string>;
}

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * npm's, uv's and pip's real caches, so that a server started as `npx -y pkg` or `uvx pkg` that is cached starts
 * offline.
 */
export function packageCaches(
  env: NodeJS.ProcessEnv,
  home: string,
  network: boolean,
  exists: (path: string) => boolean = isDirectory,
): PackageCaches {
  const paths: string[] = [];
  const out: Record<string, string> = {};
  const use = (path: string, ...names: string[]) => {
    if (!exists(path)) return false;
    paths.push(path);
    for (const name of names) out[name] = path;
    return true;
  };
  const cacheHome = env.XDG_CACHE_HOME || join(home, '.cache');
  const dataHome = env.XDG_DATA_HOME || join(home, '.local', 'share');
  use(env.npm_config_cache || env.NPM_CONFIG_CACHE || join(home, '.npm'), 'npm_config_cache');
  use(env.UV_CACHE_DIR || join(cacheHome, 'uv'), 'UV_CACHE_DIR');
  const uvData = join(dataHome, 'uv');
  const uvTools = env.UV_TOOL_DIR || join(uvData, 'tools');
  const uvPythons = env.UV_PYTHON_INSTALL_DIR || join(uvData, 'python');
  const withData = use(uvData);
  if (!use(uvTools, 'UV_TOOL_DIR') && withData) out.UV_TOOL_DIR = uvTools;
  if (!use(uvPythons, 'UV_PYTHON_INSTALL_DIR') && withData) out.UV_PYTHON_INSTALL_DIR = uvPythons;
  use(env.PIP_CACHE_DIR || join(cacheHome, 'pip'), 'PIP_CACHE_DIR');
  // Installed for the user (pip install --user, pyenv's pythons) and found through HOME, which is the scratch one
  // inside: read where the real home has them, not overlaid (nothing there is a cache).
  for (const [name, path] of [
    ['PYTHONUSERBASE', join(home, '.local')],
    ['PYENV_ROOT', join(home, '.pyenv')],
  ] as const) {
    if (!env[name] && exists(path)) out[name] = path;
  }
  if (!network) Object.assign(out, { npm_config_offline: 'true', UV_OFFLINE: '1', PIP_NO_INDEX: '1' });
  return { paths, env: out };
}

const NPX_VALUE_FLAGS = new Set(['-p', '--package', '-c', '--call', '--cache', '--userconfig', '--registry']);
const UVX_VALUE_FLAGS = new Set([
  '--from',
  '--with',
  '--with-editable',
  '--with-requirements',
  '--python',
  '-p',
  '--index',
  '--index-url',
  '-i',
  '--extra-index-url',
  '--default-index',
  '--constraints',
  '--overrides',
  '--cache-dir',
  '--directory',
  '--project',
  '--config-file',
]);

/**
 * The package a command line runs, given the value of `wanted` (`--package`, `--from`) or else the first positional
 * word.
 */
function packageOf(
  words: readonly string[],
  valueFlags: ReadonlySet<string>,
  wanted: readonly string[],
): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') return words[i + 1];
    const eq = word.indexOf('=');
    const flag = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word;
    if (wanted.includes(flag)) return eq > 0 && flag !== word ? word.slice(eq + 1) : words[i + 1];
    if (!word.startsWith('-')) return word;
    if (valueFlags.has(word)) i++;
  }
  return undefined;
}

/**
 * What to run outside the sandbox, with network, to put the package an `npx`/`uvx` command line starts in the cache
 * (`undefined` for any other command).
 */
export function fillCacheCommand(argv: readonly string[]): string | undefined {
  const [command, ...rest] = argv;
  const name = command === undefined ? '' : basename(command);
  if (name === 'npx') {
    const pkg = packageOf(rest, NPX_VALUE_FLAGS, ['-p', '--package']);
    return pkg === undefined ? undefined : `npm exec --yes --package=${joinCommandLine([pkg])} -- true`;
  }
  const uvArgs =
    name === 'uvx' ? rest : name === 'uv' && rest[0] === 'tool' && rest[1] === 'run' ? rest.slice(2) : undefined;
  if (uvArgs === undefined) return undefined;
  const pkg = packageOf(uvArgs, UVX_VALUE_FLAGS, ['--from']);
  return pkg === undefined ? undefined : `uv tool install ${joinCommandLine([pkg])}`;
}

/** Error codes, as Node, npm and libc spell them (in capitals: "ModuleNotFoundError" is no ENOTFOUND). */
const NETWORK_CODES = /\b(ENOTFOUND|EAI_AGAIN|ENOTCACHED|ENETUNREACH|EHOSTUNREACH|ECONNREFUSED)\b/;
const NETWORK_WORDS = new RegExp(
  [
    'only-if-cached',
    'getaddrinfo',
    '\\bnetwork\\b',
    '\\boffline\\b',
    'Failed to fetch',
    'Failed to download',
    'Could not resolve host',
    'Temporary failure in name resolution',
    'Name or service not known',
    'No matching distribution found',
    'Could not find a version that satisfies',
  ].join('|'),
  'i',
);

/**
 * Whether a server's stderr says it wanted the network (or a package not in the cache): why a sandboxed npx/uvx failed.
 */
export function looksLikeMissingNetwork(stderr: string): boolean {
  return NETWORK_CODES.test(stderr) || NETWORK_WORDS.test(stderr);
}
