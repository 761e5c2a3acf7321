export interface Hidden {
  path: string;
  /** A folder is covered by an empty tmpfs; anything else (a file, a socket) by /dev/null. */
  directory: boolean;
}

export interface BwrapLayout {
  /** Its layers are hidden (an empty tmpfs over it), then its `home`, `tmp` and `work` bound back. */
  scratch: string;
  scratchFolders: readonly string[];
  /** Where the holder's namespace has an overlay mounted: bound writable. */
  mounts: readonly string[];
  hidden: readonly Hidden[];
  cwd: string;
  network: boolean;
  uid: number;
  gid: number;
}

/** bubblewrap's options for one server process, run in the holder's namespaces (where the overlays are mounted). */
export function bwrapArgs(layout: BwrapLayout): string[] {
  const args = ['--unshare-all', '--unshare-user', ...(layout.network ? ['--share-net'] : []), '--die-with-parent'];
  args.push('--uid', String(layout.uid), '--gid', String(layout.gid));
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', layout.scratch);
  for (const mount of layout.mounts) args.push('--bind', mount, mount);
  for (const hidden of layout.hidden) {
    args.push(...(hidden.directory ? ['--tmpfs', hidden.path] : ['--ro-bind', '/dev/null', hidden.path]));
  }
  // After the hidden folders: a hidden folder that holds the scratch one must not hide it.
  for (const folder of layout.scratchFolders) args.push('--bind', folder, folder);
  args.push('--chdir', layout.cwd);
  return args;
}
