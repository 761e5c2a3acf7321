import type { AnswerLatency } from './latency.js';
import { defectAvailableAs, defectAvailableOn, findDefect, type DefectName } from './defects/index.js';
import { PROTOCOL_VERSION } from './constants.js';
import { isInitializeRevision, isRevision, REVISION_RULES, REVISIONS, type Revision } from './revisions.js';

export type CliCommand =
  | { kind: 'list-defects' }
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | {
      kind: 'serve';
      transport: 'stdio' | 'http';
      port: number;
      sse: boolean;
      /** The revision served: 2026-07-28, or an initialize revision (sessions that agree it or an older one). */
      protocolVersion: Revision;
      defects: Set<DefectName>;
      /** Self-tests: append one line per received message to this file. */
      arrivalLog?: string;
      /** Self-tests (HTTP): answer the first tools/list with 429 and this Retry-After, in seconds. */
      rateLimitOnce?: number;
      /** Benchmarks: list this many generated tools besides the reference ones, 100 per page. */
      scaleTools?: number;
      /** Benchmarks: list generated tools adding up to this many megabytes, all on one page. */
      bigPageMb?: number;
      /**
       * Benchmarks: list this many generated read-only tools instead of the reference ones, every call of which fails.
       */
      failingTools?: number;
      /** Benchmarks: how late tools/call answers are sent. */
      latency: AnswerLatency;
    };

/* eslint-disable max-len -- the usage text is printed as it is: a line break here would show */
export const USAGE = `Usage: reference-server [--protocol-version REV] [--http [--port N] [--sse]] [--defect NAME]... | --list-defects

  (no option)      serve MCP 2026-07-28 over stdio
  --protocol-version REV
                   serve REV: ${REVISIONS.join(', ')}. An initialize revision answers initialize with
                   the version offered when it is REV or older, else REV, and shapes every result to the agreed
                   revision's schema.json; requests carry no per-request _meta and server/discover is an unknown method.
                   Over HTTP: Streamable HTTP with Mcp-Session-Id sessions (2025-03-26 on); for 2024-11-05 the
                   HTTP+SSE transport (GET /sse opens a session's stream, whose endpoint event names where to POST)
  --http           serve Streamable HTTP on http://127.0.0.1:PORT/mcp (port 0 = random, the default)
  --port N         HTTP port
  --sse            answer every HTTP request with an SSE stream
  --defect NAME    break one requirement on purpose (repeatable)
  --list-defects   print NAME<TAB>CHECK-ID<TAB>description for every defect

For self-tests:
  --log-arrivals FILE       append "<epoch ms> <pid>[:<client port>] <what>" to FILE for every message received
                            (all processes may share FILE; the port is there over HTTP)
  --rate-limit-once SECONDS answer the first tools/list with HTTP 429 and Retry-After: SECONDS (needs --http)

For benchmarks (generated tools are listed, never callable, but for --failing-tools):
  --scale-tools N           list N generated tools (varied schemas, every 100th large) after the reference ones, 100 per page
  --big-page-mb M           list generated tools adding up to M megabytes (1-15), all on one tools/list page
  --failing-tools N         list N generated read-only tools (1-1000) instead of the reference ones; every call of one
                            answers a tool execution error (isError), like a tool whose upstream is unreachable
  --tool-latency-ms N       answer every tools/call N ms late (0-10000); calls overlap, like tools that wait on I/O
  --error-latency-ms N      answer a tools/call N ms later still (0-10000) when the answer is an error or an isError
                            result, like a tool whose failures wait on a remote API`;
/* eslint-enable max-len */

const MAX_SCALE_TOOLS = 100_000;
const MAX_BIG_PAGE_MB = 15;
const MAX_FAILING_TOOLS = 1000;
const MAX_TOOL_LATENCY_MS = 10_000;

export function parseCliArgs(argv: readonly string[]): CliCommand {
  let http = false;
  let sse = false;
  let protocolVersion: Revision = PROTOCOL_VERSION;
  let port: number | undefined;
  let arrivalLog: string | undefined;
  let rateLimitOnce: number | undefined;
  let scaleTools: number | undefined;
  let bigPageMb: number | undefined;
  let failingTools: number | undefined;
  const latency: AnswerLatency = {};
  const defects: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const [flag, inlineValue] = splitFlag(argv[index] ?? '');
    const takeValue = (): string | undefined => inlineValue ?? argv[++index];
    switch (flag) {
      case '--list-defects':
        return { kind: 'list-defects' };
      case '--help':
      case '-h':
        return { kind: 'help' };
      case '--http':
        http = true;
        break;
      case '--sse':
        sse = true;
        break;
      case '--protocol-version': {
        const value = takeValue();
        if (!isRevision(value))
          return {
            kind: 'error',
            message: `--protocol-version needs one of ${REVISIONS.join(', ')}, got ${value ?? 'nothing'}`,
          };
        protocolVersion = value;
        break;
      }
      case '--port': {
        const value = takeValue();
        if (value === undefined || !/^\d+$/.test(value) || Number(value) > 65535) {
          return { kind: 'error', message: `--port needs a number between 0 and 65535, got ${value ?? 'nothing'}` };
        }
        port = Number(value);
        break;
      }
      case '--defect': {
        const value = takeValue();
        if (value === undefined) return { kind: 'error', message: '--defect needs a defect name' };
        defects.push(value);
        break;
      }
      case '--log-arrivals': {
        arrivalLog = takeValue();
        if (arrivalLog === undefined || arrivalLog === '')
          return { kind: 'error', message: '--log-arrivals needs a file path' };
        break;
      }
      case '--rate-limit-once': {
        const value = takeValue();
        if (value === undefined || !/^\d+$/.test(value))
          return {
            kind: 'error',
            message: `--rate-limit-once needs a whole number of seconds, got ${value ?? 'nothing'}`,
          };
        rateLimitOnce = Number(value);
        break;
      }
      case '--scale-tools': {
        const value = takeValue();
        if (value === undefined || !/^[1-9]\d*$/.test(value) || Number(value) > MAX_SCALE_TOOLS) {
          return {
            kind: 'error',
            message: `--scale-tools needs a number between 1 and ${MAX_SCALE_TOOLS}, got ${value ?? 'nothing'}`,
          };
        }
        scaleTools = Number(value);
        break;
      }
      case '--big-page-mb': {
        const value = takeValue();
        if (value === undefined || !/^[1-9]\d*$/.test(value) || Number(value) > MAX_BIG_PAGE_MB) {
          return {
            kind: 'error',
            message: `--big-page-mb needs a number between 1 and ${MAX_BIG_PAGE_MB}, got ${value ?? 'nothing'}`,
          };
        }
        bigPageMb = Number(value);
        break;
      }
      case '--failing-tools': {
        const value = takeValue();
        if (value === undefined || !/^[1-9]\d*$/.test(value) || Number(value) > MAX_FAILING_TOOLS) {
          return {
            kind: 'error',
            message: `--failing-tools needs a number between 1 and ${MAX_FAILING_TOOLS}, got ${value ?? 'nothing'}`,
          };
        }
        failingTools = Number(value);
        break;
      }
      case '--tool-latency-ms':
      case '--error-latency-ms': {
        const value = takeValue();
        if (value === undefined || !/^\d+$/.test(value) || Number(value) > MAX_TOOL_LATENCY_MS) {
          return {
            kind: 'error',
            message: `${flag} needs a number between 0 and ${MAX_TOOL_LATENCY_MS}, got ${value ?? 'nothing'}`,
          };
        }
        if (Number(value) > 0)
          latency[flag === '--tool-latency-ms' ? 'toolLatencyMs' : 'errorLatencyMs'] = Number(value);
        break;
      }
      default:
        return { kind: 'error', message: `unknown option ${argv[index] ?? ''}` };
    }
  }
  const transport = http ? 'http' : 'stdio';
  if (!http && (sse || port !== undefined || rateLimitOnce !== undefined)) {
    return { kind: 'error', message: '--sse, --port and --rate-limit-once need --http' };
  }
  if ([scaleTools, bigPageMb, failingTools].filter((n) => n !== undefined).length > 1) {
    return { kind: 'error', message: '--scale-tools, --big-page-mb and --failing-tools are exclusive' };
  }
  if (sse && isInitializeRevision(protocolVersion) && REVISION_RULES[protocolVersion].http === 'http+sse') {
    return {
      kind: 'error',
      message:
        `--sse is for Streamable HTTP: ${protocolVersion} speaks HTTP+SSE, where every answer comes on the ` +
        `event stream`,
    };
  }
  const names = new Set<DefectName>();
  for (const name of defects) {
    const defect = findDefect(name);
    if (!defect) return { kind: 'error', message: `unknown defect "${name}" (see --list-defects)` };
    if (!defectAvailableOn(defect, transport)) {
      return { kind: 'error', message: `defect "${name}" is not available over ${transport}` };
    }
    if (!defectAvailableAs(defect, protocolVersion)) {
      return {
        kind: 'error',
        message:
          `defect "${name}" breaks a rule of MCP ${defect.revision}: it needs --protocol-version ` +
          `${defect.revision} (or a newer initialize revision)`,
      };
    }
    names.add(defect.name as DefectName);
  }
  return {
    kind: 'serve',
    transport,
    port: port ?? 0,
    sse,
    protocolVersion,
    defects: names,
    ...(arrivalLog !== undefined ? { arrivalLog } : {}),
    ...(rateLimitOnce !== undefined ? { rateLimitOnce } : {}),
    ...(scaleTools !== undefined ? { scaleTools } : {}),
    ...(bigPageMb !== undefined ? { bigPageMb } : {}),
    ...(failingTools !== undefined ? { failingTools } : {}),
    latency,
  };
}

function splitFlag(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return arg.startsWith('--') && equals > 0 ? [arg.slice(0, equals), arg.slice(equals + 1)] : [arg, undefined];
}
