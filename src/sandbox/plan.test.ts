import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSystemPath, wordPath, type PathKind, type PathProbe } from './plan.js';
import { planOverlays } from './index.js';

/** A filesystem of a few folders and files; `links` maps a path to where it really is. */
function fakeProbe(folders: string[], files: string[] = [], links: Record<string, string> = {}): PathProbe {
  const real = (path: string) => {
    for (const [link, target] of Object.entries(links)) {
      if (path === link || path.startsWith(`${link}/`)) return target + path.slice(link.length);
    }
    return path;
  };
  return {
    kind: (path): PathKind =>
      folders.includes(real(path)) ? 'directory' : files.includes(real(path)) ? 'file' : 'missing',
    realpath: real,
  };
}

const HOME = '/home/u';
const base = { userEnv: {}, cwd: '/usr', home: HOME };
const folders = [
  '/',
  '/home',
  HOME,
  `${HOME}/data`,
  `${HOME}/data/deep`,
  `${HOME}/proj`,
  '/srv/db',
  '/usr',
  '/usr/bin',
  '/etc',
  '/tmp',
];
const files = [
  `${HOME}/data/notes.json`,
  `${HOME}/proj/server.js`,
  '/usr/bin/node',
  '/etc/passwd',
  '/srv/db/main.sqlite',
];
const probe = fakeProbe(folders, files);

describe('planOverlays', () => {
  it('overlays an existing folder, the folder of an existing file, and the parent of a missing path', () => {
    const plan = planOverlays(
      { ...base, argv: ['node', `${HOME}/proj/server.js`, '/srv/db', '/tmp/memory.json'] },
      probe,
    );
    expect(plan.overlays).toEqual([`${HOME}/proj`, '/srv/db', '/tmp']);
  });

  it('ignores a missing path whose parent is missing too, and words that are not paths', () => {
    const argv = [
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      'server',
      '--verbose',
      '1.0',
      'https://e.com/x',
      '/nope/x.db',
    ];
    expect(planOverlays({ ...base, argv }, probe)).toEqual({ overlays: [], cwdOverlaid: false });
  });

  it('reads the value of --flag=value and KEY=value words, and expands ~/', () => {
    const argv = ['srv', '--db=/srv/db/main.sqlite', 'MEMORY_FILE=~/data/notes.json', '--root', '~'];
    const plan = planOverlays({ ...base, argv }, probe);
    expect(plan.overlays).toEqual([HOME, '/srv/db']);
    expect(
      planOverlays({ ...base, argv: ['srv', '--db=/srv/db/main.sqlite', '--x=~/data/notes.json'] }, probe).overlays,
    ).toEqual([`${HOME}/data`, '/srv/db']);
  });

  it('resolves relative words with a slash or a leading dot against the cwd', () => {
    const cwd = `${HOME}/proj`;
    expect(planOverlays({ ...base, cwd, argv: ['node', './server.js'] }, probe).overlays).toEqual([cwd]);
    expect(planOverlays({ ...base, cwd: '/usr', argv: ['x', '../home/u/data/deep', '.'] }, probe).overlays).toEqual([
      `${HOME}/data/deep`,
    ]);
    expect(planOverlays({ ...base, cwd: `${HOME}/data`, argv: ['x', 'deep/new.txt'] }, probe).overlays).toEqual([
      `${HOME}/data`,
    ]);
  });

  it('takes paths from the values the user gave in the environment, colon lists included', () => {
    const userEnv = { DB: 'sqlite:///srv/db/main.sqlite', NOTES: `${HOME}/data/notes.json`, NAME: 'plain' };
    expect(planOverlays({ ...base, argv: ['srv'], userEnv }, probe).overlays).toEqual([`${HOME}/data`, '/srv/db']);
  });

  it('never overlays / or a system tree, even reached through a link', () => {
    const argv = [
      '/usr/bin/node',
      '/etc/passwd',
      '/',
      '/lib64/ld.so',
      '/proc/self',
      '/sys',
      '/var/lib/x',
      `${HOME}/sys-link`,
    ];
    const linked = fakeProbe([...folders, '/lib64', '/var/lib'], files, { [`${HOME}/sys-link`]: '/etc' });
    expect(planOverlays({ ...base, argv }, linked).overlays).toEqual([]);
    expect(isSystemPath('/usr')).toBe(true);
    expect(isSystemPath('/nix/store/abc-x')).toBe(true);
    expect(isSystemPath('/usrlocal')).toBe(false);
    expect(isSystemPath('/library')).toBe(true);
    expect(isSystemPath('/home/u/usr')).toBe(false);
  });

  it('overlays where a link leads, and keeps only the outermost of nested paths', () => {
    const linked = fakeProbe(folders, files, { '/data-link': `${HOME}/data` });
    const argv = ['srv', '/data-link/deep', `${HOME}/data/notes.json`, `${HOME}/data`];
    expect(planOverlays({ ...base, argv }, linked).overlays).toEqual([`${HOME}/data`]);
    expect(planOverlays({ ...base, cwd: HOME, argv }, linked).overlays).toEqual([HOME]);
  });

  it('overlays the cwd unless it is / or a system tree', () => {
    expect(planOverlays({ ...base, cwd: `${HOME}/proj`, argv: ['srv'] }, probe)).toEqual({
      overlays: [`${HOME}/proj`],
      cwdOverlaid: true,
    });
    expect(planOverlays({ ...base, cwd: '/', argv: ['srv'] }, probe)).toEqual({ overlays: [], cwdOverlaid: false });
    expect(planOverlays({ ...base, cwd: '/etc', argv: ['srv'] }, probe)).toEqual({ overlays: [], cwdOverlaid: false });
  });

  it('reads file:// URLs as paths', () => {
    expect(planOverlays({ ...base, argv: ['srv', `file://${HOME}/data/notes.json`] }, probe).overlays).toEqual([
      `${HOME}/data`,
    ]);
  });

  it('probes the real filesystem by default', () => {
    const root = mkdtempSync(join(tmpdir(), 'plan-test-'));
    try {
      mkdirSync(join(root, 'real'));
      writeFileSync(join(root, 'real', 'f.json'), '{}');
      symlinkSync(join(root, 'real'), join(root, 'link'));
      const argv = ['srv', join(root, 'link', 'f.json'), join(root, 'absent', 'x')];
      const plan = planOverlays({ argv, userEnv: {}, cwd: '/', home: HOME });
      expect(plan).toEqual({ overlays: [join(root, 'real')], cwdOverlaid: false });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('wordPath', () => {
  it('turns a word into an absolute path only when it looks like one', () => {
    expect(wordPath('~/x', '/c', HOME)).toBe(`${HOME}/x`);
    expect(wordPath('~', '/c', HOME)).toBe(HOME);
    expect(wordPath('.', '/c', HOME)).toBe('/c');
    expect(wordPath('.env', '/c', HOME)).toBe('/c/.env');
    expect(wordPath('a/b/../c', '/c', HOME)).toBe('/c/a/c');
    expect(wordPath('/a//b/', '/c', HOME)).toBe('/a/b');
    expect(wordPath('name', '/c', HOME)).toBeUndefined();
    expect(wordPath('', '/c', HOME)).toBeUndefined();
    expect(wordPath('~user/x', '/c', HOME)).toBe('/c/~user/x');
  });
});
