import { describe, expect, it } from 'vitest';
import { packageCaches } from './package-caches.js';
import { fillCacheCommand, looksLikeMissingNetwork } from './index.js';

const HOME = '/home/u';
const existing =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

describe('packageCaches', () => {
  it('overlays the caches that exist at their default places and points the package managers at them', () => {
    const all = existing(`${HOME}/.npm`, `${HOME}/.cache/uv`, `${HOME}/.local/share/uv`, `${HOME}/.cache/pip`);
    const caches = packageCaches({}, HOME, true, all);
    expect(caches.paths).toEqual([
      `${HOME}/.npm`,
      `${HOME}/.cache/uv`,
      `${HOME}/.local/share/uv`,
      `${HOME}/.cache/pip`,
    ]);
    expect(caches.env).toEqual({
      npm_config_cache: `${HOME}/.npm`,
      UV_CACHE_DIR: `${HOME}/.cache/uv`,
      UV_TOOL_DIR: `${HOME}/.local/share/uv/tools`,
      UV_PYTHON_INSTALL_DIR: `${HOME}/.local/share/uv/python`,
      PIP_CACHE_DIR: `${HOME}/.cache/pip`,
    });
  });

  it('follows the variables that move the caches', () => {
    const env = { npm_config_cache: '/c/npm', UV_CACHE_DIR: '/c/uv', PIP_CACHE_DIR: '/c/pip', XDG_DATA_HOME: '/d' };
    const caches = packageCaches(env, HOME, true, existing('/c/npm', '/c/uv', '/c/pip', '/d/uv'));
    expect(caches.paths).toEqual(['/c/npm', '/c/uv', '/d/uv', '/c/pip']);
    expect(caches.env).toMatchObject({ npm_config_cache: '/c/npm', UV_CACHE_DIR: '/c/uv', UV_TOOL_DIR: '/d/uv/tools' });
    expect(caches.env.PIP_CACHE_DIR).toBe('/c/pip');
    expect(packageCaches({ XDG_CACHE_HOME: '/x' }, HOME, true, existing('/x/uv')).env).toEqual({
      UV_CACHE_DIR: '/x/uv',
    });
  });

  it('overlays nothing that does not exist, and keeps the package managers offline without network', () => {
    const caches = packageCaches({}, HOME, false, existing());
    expect(caches.paths).toEqual([]);
    expect(caches.env).toEqual({ npm_config_offline: 'true', UV_OFFLINE: '1', PIP_NO_INDEX: '1' });
    expect(packageCaches({}, HOME, true, existing()).env).toEqual({});
  });
});

describe('packages installed for the user', () => {
  it('are found where the real home has them (pip --user, pyenv), unless the user set the variable, and not overlaid', () => {
    const caches = packageCaches({}, HOME, true, existing(`${HOME}/.local`, `${HOME}/.pyenv`));
    expect(caches.env).toEqual({ PYTHONUSERBASE: `${HOME}/.local`, PYENV_ROOT: `${HOME}/.pyenv` });
    expect(caches.paths).toEqual([]);
    expect(packageCaches({ PYENV_ROOT: '/opt/pyenv' }, HOME, true, existing(`${HOME}/.pyenv`)).env).toEqual({});
  });
});

describe('fillCacheCommand', () => {
  it('fills npm’s cache for an npx command line', () => {
    expect(fillCacheCommand(['npx', '-y', '@modelcontextprotocol/server-memory'])).toBe(
      'npm exec --yes --package=@modelcontextprotocol/server-memory -- true',
    );
    expect(fillCacheCommand(['/usr/bin/npx', '--yes', 'pkg@1.2.3', '/data', '--flag'])).toBe(
      'npm exec --yes --package=pkg@1.2.3 -- true',
    );
    expect(fillCacheCommand(['npx', 'srv'])).toBe('npm exec --yes --package=srv -- true');
    expect(fillCacheCommand(['npx', '-p', 'pkg', 'bin-name'])).toBe('npm exec --yes --package=pkg -- true');
    expect(fillCacheCommand(['npx', '--package=pkg', 'bin-name'])).toBe('npm exec --yes --package=pkg -- true');
    expect(fillCacheCommand(['npx', 'pkg@>=2'])).toBe("npm exec --yes --package='pkg@>=2' -- true");
  });

  it('installs the uv tool for a uvx command line', () => {
    expect(fillCacheCommand(['uvx', 'mcp-server-fetch'])).toBe('uv tool install mcp-server-fetch');
    const git = ['uvx', '--from', 'mcp-server-git', 'mcp-server-git', '--repository', '.'];
    expect(fillCacheCommand(git)).toBe('uv tool install mcp-server-git');
    expect(fillCacheCommand(['uvx', '--from=pkg==1.0', 'cmd'])).toBe('uv tool install pkg==1.0');
    expect(fillCacheCommand(['uvx', '--python', '3.12', 'srv'])).toBe('uv tool install srv');
    expect(fillCacheCommand(['uv', 'tool', 'run', 'srv'])).toBe('uv tool install srv');
  });

  it('has nothing to say for other commands', () => {
    expect(fillCacheCommand(['node', 'server.js'])).toBeUndefined();
    expect(fillCacheCommand(['uv', 'run', 'server.py'])).toBeUndefined();
    expect(fillCacheCommand(['npx'])).toBeUndefined();
    expect(fillCacheCommand([])).toBeUndefined();
  });
});

describe('looksLikeMissingNetwork', () => {
  it('recognises what npm, uv, pip and Node say without network', () => {
    for (const text of [
      'npm ERR! code ENOTCACHED\nnpm ERR! request to https://registry.npmjs.org/x failed: cache mode is ' +
        "'only-if-cached'",
      'npm error code EAI_AGAIN',
      'Error: getaddrinfo ENOTFOUND registry.npmjs.org',
      'connect ENETUNREACH 104.16.0.1:443',
      'error: Failed to fetch: `https://pypi.org/simple/x/`',
      "  Caused by: Network connectivity is disabled, but the requested data wasn't found in the cache for: `x`",
      'ERROR: Could not find a version that satisfies the requirement x (from versions: none)',
      'npm WARN offline Using cache due to offline mode',
    ]) {
      expect(looksLikeMissingNetwork(text), text).toBe(true);
    }
  });

  it('stays quiet about other failures', () => {
    expect(looksLikeMissingNetwork("TypeError: Cannot read properties of undefined (reading 'x')")).toBe(false);
    expect(looksLikeMissingNetwork('Error: EACCES: permission denied, open /etc/x')).toBe(false);
    expect(looksLikeMissingNetwork('')).toBe(false);
    // A Python server whose package is not installed at all: no network would help.
    expect(looksLikeMissingNetwork("ModuleNotFoundError: No module named 'mcp'")).toBe(false);
  });
});
