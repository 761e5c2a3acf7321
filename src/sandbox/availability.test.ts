import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOnPath } from './availability.js';
import { sandboxUnavailable } from './index.js';

const made: string[] = [];
const realPath = process.env.PATH;
const realPlatform = process.platform;

/** A PATH holding only `names`, linked to where the real PATH has them, and `fakes` (shell scripts). */
function pathWith(names: string[], fakes: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'availability-test-'));
  made.push(dir);
  for (const name of names) {
    const real = findOnPath(name);
    if (real !== undefined) symlinkSync(real, join(dir, name));
  }
  for (const [name, script] of Object.entries(fakes))
    writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return dir;
}

const TOOLS = ['bwrap', 'unshare', 'nsenter', 'mount', 'cat', 'true'];
const linuxWithTools = realPlatform === 'linux' && TOOLS.every((name) => findOnPath(name) !== undefined);

afterEach(() => {
  process.env.PATH = realPath;
  Object.defineProperty(process, 'platform', { value: realPlatform });
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('sandboxUnavailable', () => {
  it.skipIf(realPlatform !== 'linux')(
    'names bubblewrap, and how to install it, when bwrap is not on PATH',
    async () => {
      process.env.PATH = pathWith(['unshare', 'nsenter', 'sh']);
      const why = await sandboxUnavailable();
      expect(why).toMatch(/bubblewrap/);
      expect(why).toMatch(/apt-get install bubblewrap/);
    },
  );

  it.skipIf(realPlatform !== 'linux' || findOnPath('bwrap') === undefined)(
    'names util-linux when nsenter is missing',
    async () => {
      process.env.PATH = pathWith(['bwrap', 'unshare']);
      expect(await sandboxUnavailable()).toMatch(/nsenter \(util-linux\)/);
    },
  );

  it.skipIf(!linuxWithTools)('names the sysctls when user namespaces are refused', async () => {
    const unshare = 'echo "unshare: unshare failed: Operation not permitted" >&2; exit 1';
    process.env.PATH = pathWith(['bwrap', 'nsenter'], { unshare });
    const why = await sandboxUnavailable();
    expect(why).toMatch(
      /user namespaces, which are refused \(unshare -Urm: unshare: unshare failed: Operation not permitted\)/,
    );
    expect(why).toMatch(/kernel\.unprivileged_userns_clone=1.*kernel\.apparmor_restrict_unprivileged_userns=0/);
  });

  it.skipIf(!linuxWithTools)('says overlayfs could not be mounted in a user namespace', async () => {
    const mount = 'echo "mount: /x: wrong fs type, bad option, bad superblock on overlay" >&2; exit 32';
    process.env.PATH = pathWith(
      TOOLS.filter((name) => name !== 'mount'),
      { mount },
    );
    const why = await sandboxUnavailable();
    expect(why).toMatch(
      /overlayfs mounted in a user namespace \(Linux 5\.11 or later; this is .*\), which failed: .*wrong fs type/,
    );
  });

  it.skipIf(!linuxWithTools)('says bubblewrap could not run in the user namespace', async () => {
    const bwrap = 'echo "bwrap: Creating new namespace failed: Operation not permitted" >&2; exit 1';
    process.env.PATH = pathWith(
      TOOLS.filter((name) => name !== 'bwrap'),
      { bwrap },
    );
    expect(await sandboxUnavailable()).toBe(
      '--sandbox cannot run bubblewrap inside its user namespace: bwrap: Creating new namespace failed: ' +
        'Operation not permitted',
    );
  });

  it('says Linux is needed elsewhere', async () => {
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    expect(await sandboxUnavailable()).toMatch(/^--sandbox needs Linux \(bubblewrap and user namespaces\), not macOS/);
  });

  it('answers once per PATH', async () => {
    const answer = sandboxUnavailable();
    expect(sandboxUnavailable()).toBe(answer);
    await answer;
  });
});
