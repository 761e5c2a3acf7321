import { DEFECTS, isDefectName, type Defect, type DefectName } from './defects/index.js';
import { isInitializeRevision, type Revision } from '../../src/core/revision.js';

const ONLY_LABEL = { http: 'HTTP', stdio: 'stdio' } as const;

export type CliArgs =
  | { kind: 'run'; defects: Set<DefectName>; positional: string[]; protocolVersion?: Revision }
  | { kind: 'help' }
  | { kind: 'list-defects' }
  | { kind: 'usage-error'; message: string };

/* eslint-disable max-len -- the usage text is printed as it is: a line break here would show */
export const USAGE = `Usage: reference-client [--protocol-version REV] [--defect NAME]... [URL] | --list-defects | --help

A generic MCP 2026-07-28 client: server/discover, tools/list (all pages), then tools/call for
every listed tool, printing one JSON line per call on stdout.

  Transport (from the environment):
    MCP_CONFORMANCE_URL=<url>             Streamable HTTP to <url> (also accepted as the last argument)
    MCP_CONFORMANCE_SERVER_COMMAND=<cmd>  stdio: spawn "sh -c <cmd>"

  --protocol-version REV   speak an earlier revision instead (2025-11-25, 2025-06-18, 2025-03-26,
                   2024-11-05): open with initialize, as clients of those revisions do
  --defect NAME    break one client rule on purpose (repeatable)
  --list-defects   print NAME<TAB>CHECK-ID<TAB>description for every defect
  --help           print this text

Exit status: 0 after the last call, 1 when the server could not be reached or listed, 2 on a usage error.
`;
/* eslint-enable max-len */

export function parseCliArgs(argv: readonly string[]): CliArgs {
  const defects = new Set<DefectName>();
  const positional: string[] = [];
  let protocolVersion: Revision | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--list-defects') return { kind: 'list-defects' };
    if (arg === '--defect' || arg.startsWith('--defect=')) {
      const name = arg === '--defect' ? argv[++i] : arg.slice('--defect='.length);
      if (name === undefined) return { kind: 'usage-error', message: '--defect needs a NAME' };
      if (!isDefectName(name)) {
        return { kind: 'usage-error', message: `unknown defect "${name}" (see --list-defects)` };
      }
      defects.add(name);
      continue;
    }
    if (arg === '--protocol-version') {
      const value = argv[++i];
      if (value === undefined || !isInitializeRevision(value))
        return {
          kind: 'usage-error',
          message: '--protocol-version needs one of 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05',
        };
      protocolVersion = value;
      continue;
    }
    if (arg.startsWith('-')) return { kind: 'usage-error', message: `unknown option ${arg}` };
    positional.push(arg);
  }
  return { kind: 'run', defects, positional, ...(protocolVersion ? { protocolVersion } : {}) };
}

export function defectListing(): string {
  return Object.entries(DEFECTS)
    .map(
      ([name, defect]: [string, Defect]) =>
        `${name}\t${typeof defect.check === 'string' ? defect.check : Object.values(defect.check).join(',')}\t` +
        `${defect.only ? `(${ONLY_LABEL[defect.only]}) ` : ''}` +
        `${defect.initializeRevision ? `(--protocol-version ${defect.initializeRevision}) ` : ''}` +
        `${defect.description}\n`,
    )
    .join('');
}
