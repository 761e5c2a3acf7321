import { describe, expect, it } from 'vitest';
import { bwrapArgs } from './bwrap-args.js';

const layout = {
  scratch: '/tmp/s',
  scratchFolders: ['/tmp/s/home', '/tmp/s/tmp'],
  mounts: ['/home/u/data'],
  hidden: [
    { path: '/home/u/data/out', directory: true },
    { path: '/run/user/1000/bus', directory: false },
  ],
  cwd: '/home/u/data',
  network: false,
  uid: 1000,
  gid: 1000,
};

describe('bwrapArgs', () => {
  it('binds the overlays over a read-only root, then hides, then binds the scratch folders back', () => {
    expect(bwrapArgs(layout).join(' ')).toBe(
      '--unshare-all --unshare-user --die-with-parent --uid 1000 --gid 1000 --ro-bind / / --dev /dev --proc ' +
        '/proc --tmpfs /tmp/s ' +
        '--bind /home/u/data /home/u/data --tmpfs /home/u/data/out --ro-bind /dev/null /run/user/1000/bus ' +
        '--bind /tmp/s/home /tmp/s/home --bind /tmp/s/tmp /tmp/s/tmp --chdir /home/u/data',
    );
  });

  it('shares the network only when allowed', () => {
    expect(bwrapArgs({ ...layout, network: true }).slice(0, 3)).toEqual([
      '--unshare-all',
      '--unshare-user',
      '--share-net',
    ]);
    expect(bwrapArgs(layout)).not.toContain('--share-net');
  });
});
