import { HOST_NAMES, isHostName, type HostName } from '../../model/hosts.js';
import { UsageError } from '../usage-error.js';
import type { ParsedArgs } from './table.js';

export interface HostOptions {
  names: HostName[];
  /** The hosts whose `blocked` tools make the exit code 1 (each is in `names`). */
  failOn: HostName[];
  /** The server's name in the hosts' configs (they prefix tool names with it); default: the name the server reports. */
  serverName?: string;
}

/** `all`, or host names comma-separated or repeated; undefined when the option was not given. */
function hostList(flag: string, values: readonly unknown[] | undefined): HostName[] | undefined {
  if (values === undefined) return undefined;
  const names = values
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`${flag} needs all or hosts: ${HOST_NAMES.join(', ')}`);
  if (names.includes('all')) return [...HOST_NAMES];
  for (const name of names)
    if (!isHostName(name))
      throw new UsageError(`${flag}: unknown host "${name}" (choose from all, ${HOST_NAMES.join(', ')})`);
  return HOST_NAMES.filter((host) => names.includes(host));
}

export function hostOptions(command: string, args: ParsedArgs): HostOptions | undefined {
  const names = hostList('--hosts', args.hosts);
  const failOn = hostList('--fail-on-host', args['fail-on-host']) ?? [];
  const serverName = args['server-name'];
  if (serverName !== undefined && String(serverName).trim() === '') throw new UsageError('--server-name needs a name');
  if (!names && failOn.length === 0) {
    if (serverName !== undefined) throw new UsageError('--server-name goes with --hosts');
    return undefined;
  }
  if (command !== 'run' && command !== 'fleet')
    throw new UsageError(`--hosts and --fail-on-host go with an audit or a fleet, not ${command}`);
  return {
    names: HOST_NAMES.filter((host) => (names ?? []).includes(host) || failOn.includes(host)),
    failOn,
    ...(serverName !== undefined ? { serverName: String(serverName) } : {}),
  };
}
