// A snapshot of the auditor's behaviour, for sweeps that must change none (issue 42): every report.json the
// self-tests judge, normalised, one file per audit, and a comparison of two snapshots.
//
//   npm run build && node scripts/behaviour-snapshot.mjs <dir> [--real] [--only <substring>[,<substring>…]] [--jobs
//   <n>] node scripts/behaviour-snapshot.mjs --compare <dirA> <dirB> [--noise <dirA2>]
//
// Audited, as the tests audit them (the built CLI's `main`, in this process, as test/helpers/cli.ts runInProcess):
// - the clean reference server over stdio, Streamable HTTP with JSON and with SSE responses, and on each initialize
//   revision over stdio and HTTP (test/reference-clean.test.ts);
// - every defect that breaks a check, on the revision, transport and audit flags test/defects.test.ts gives it;
// - with --real, the real npm servers and the SDK v2 fixtures of test/real-servers.test.ts.
// Two audits at a time by default (--jobs). Each report.json is written as <dir>/<name>.json with what differs from
// one run to the next replaced by placeholders (normalise below), plus <dir>/exit-codes.json, and as written in
// <dir>/raw/. --compare normalises both raw/ folders again (so a rule added later applies to older snapshots), lists
// the files only one side has and, for each file that differs, the first differing JSON paths, then whether the
// verdicts alone (ids, statuses, sentences; summary, verdict, exit code) are the same in every report; it exits 1 on
// any difference. Both kinds of difference show up between two runs of one tree under load (a time-budgeted search
// calls fewer tools, a notification arrives after the answer it follows): --noise <a second snapshot of dirA's tree>
// counts the differences at the JSON paths where those two differ as noise.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REFERENCE = join(ROOT, 'dist/reference-server/main.js');
const MAIN = join(ROOT, 'dist/src/cli/main.js');

// ---------------------------------------------------------------------------------------------------------- normalise

const ISO_DATE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
/** Keys whose values are timings or instants, whatever they hold. */
const TIMING_KEYS = new Set([
  'startedAt',
  'sentAt',
  'receivedAt',
  'finishedAt',
  'durationMs',
  'wallMs',
  'elapsedMs',
  'date',
]);
/**
 * Keys whose values are the order of arrival among the audit's overlapping exchanges (a counter shared by the audits
 * of one process, and checks run 4 at a time), not what was exchanged.
 */
const ORDER_KEYS = new Set(['seq', 'answeredSeq', 'id', 'io.modelcontextprotocol/subscriptionId']);
/** Opaque tokens the reference server signs with an expiry (requestState), whole or abbreviated in a note. */
const TOKEN = /eyJ[\w-]*(\.[\w-]+)?(…[\w-]+)?/g;
/**
 * Counts in messages that depend on how the overlapping checks interleave: request ids of retried rounds, and how the
 * property search's refused cases split between errors and results.
 */
const ORDER_IN_TEXT = [
  [/\bids \d+(?: → \d+)+/g, 'ids <ids>'],
  [/: \d+(?: → \d+)+/g, ': <ids>'],
  [/; \d+ answered with a JSON-RPC error/g, '; <n> answered with a JSON-RPC error'],
  [/\b\d+(\.\d+)? ms\b/g, '<n> ms'],
  [/\bexchange #\d+/g, 'exchange #<seq>'],
  [/\b\d+ messages (are valid|received)\b/g, '<n> messages $1'],
];
/**
 * Checks whose cases depend on which tools are free when they run (the property search of refused arguments takes the
 * tools no other check is calling, within its budget): their status is compared, their message and evidence not. The
 * calls they make are why stats.requests and the counts of stats.toolsCalled vary too (the tools called do not).
 */
const VOLATILE_CHECKS = new Set(['tools.err.execution-errors.property']);
const HTTP_DATE = /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** Replaces what changes between two runs of the same audit: instants, timings, temp paths, ports, pids. */
function normaliseString(text) {
  return text
    .replace(ISO_DATE, '<date>')
    .replace(HTTP_DATE, '<date>')
    .replace(UUID, '<uuid>')
    .replace(TOKEN, '<token>')
    .replaceAll(ROOT.replace(/\/$/, ''), '<root>')
    .replaceAll(process.execPath, '<node>')
    .replace(/\/tmp\/[\w.-]+/g, '<tmp>')
    .replace(/(127\.0\.0\.1|localhost|\[::1\]):\d+/g, '$1:<port>')
    .replace(/\bpid \d+/g, 'pid <pid>')
    .replace(...ORDER_IN_TEXT[0])
    .replace(...ORDER_IN_TEXT[1])
    .replace(...ORDER_IN_TEXT[2])
    .replace(...ORDER_IN_TEXT[3])
    .replace(...ORDER_IN_TEXT[4])
    .replace(...ORDER_IN_TEXT[5]);
}

export function normalise(value, key) {
  if (value && typeof value === 'object' && VOLATILE_CHECKS.has(value.id) && 'status' in value)
    value = { ...value, message: '<volatile>', evidence: '<volatile>' };
  if (key === 'stats' && value && typeof value === 'object') {
    const counts = (o) =>
      o
        ? Object.fromEntries(
            Object.keys(o)
              .sort()
              .map((k) => [k, '<n>']),
          )
        : o;
    value = { ...value, requests: '<n>', toolsCalled: counts(value.toolsCalled) };
  }
  if (key !== undefined && TIMING_KEYS.has(key)) return typeof value === 'number' ? '<ms>' : '<date>';
  if (key !== undefined && ORDER_KEYS.has(key) && typeof value === 'number') return '<seq>';
  if (typeof value === 'string') return normaliseString(value);
  if (Array.isArray(value)) return value.map((v) => normalise(v));
  if (value && typeof value === 'object') {
    // An exchange's members are set as its parts arrive: over SSE the response may come before the HTTP status or
    // after.
    const entries =
      'seq' in value && 'request' in value
        ? Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))
        : Object.entries(value);
    return Object.fromEntries(entries.map(([k, v]) => [normaliseString(k), normalise(v, k)]));
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------- compare

function differences(a, b, path = '$', out = [], limit = 8) {
  if (out.length >= limit) return out;
  if (
    typeof a !== typeof b ||
    Array.isArray(a) !== Array.isArray(b) ||
    a === null ||
    b === null ||
    typeof a !== 'object'
  ) {
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push(`${path}: ${JSON.stringify(a)?.slice(0, 160)} ≠ ${JSON.stringify(b)?.slice(0, 160)}`);
    return out;
  }
  const keys = Array.isArray(a)
    ? [...Array(Math.max(a.length, b.length)).keys()]
    : [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) differences(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`, out, limit);
  return out;
}

/**
 * Lists what differs between two snapshots. With `noise` (a second snapshot of the tree `dirA` was taken from), a
 * difference at a JSON path that also differs between `dirA` and `noise` is counted as noise (the audit's own
 * variation under load: time-budgeted searches, timers of real servers), the others as unexplained.
 */
function compare(dirA, dirB, noise) {
  const noisy = noise ? noisePaths(dirA, noise) : new Set();
  let noiseOnly = 0;
  const files = (dir) => new Set(readdirSync(dir).filter((f) => f.endsWith('.json')));
  const [a, b] = [files(dirA), files(dirB)];
  let differing = 0;
  for (const f of [...a].filter((f) => !b.has(f)).sort()) {
    differing++;
    console.log(`only in ${dirA}: ${f}`);
  }
  for (const f of [...b].filter((f) => !a.has(f)).sort()) {
    differing++;
    console.log(`only in ${dirB}: ${f}`);
  }
  const both = [...a].filter((f) => b.has(f) && f !== 'exit-codes.json').sort();
  // Exit codes of the audits both snapshots ran (one may be partial, --only).
  const [codesA, codesB] = [dirA, dirB].map((dir) => JSON.parse(readFileSync(join(dir, 'exit-codes.json'), 'utf8')));
  for (const name of Object.keys(codesA).filter((name) => name in codesB && codesA[name] !== codesB[name])) {
    differing++;
    console.log(`exit code differs: ${name}: ${codesA[name]} ≠ ${codesB[name]}`);
  }
  for (const f of both) {
    const [textA, textB] = [readSnapshot(dirA, f), readSnapshot(dirB, f)];
    if (textA === textB) continue;
    // Structure equal, text not: the same members in another order.
    const lines = differences(JSON.parse(textA), JSON.parse(textB), '$', [], Infinity);
    const unexplained = lines.filter((line) => !noisy.has(`${f} ${line.slice(0, line.indexOf(': '))}`));
    if (noise && unexplained.length === 0 && lines.length > 0) {
      noiseOnly++;
      continue;
    }
    differing++;
    console.log(`differs: ${f}`);
    for (const line of (unexplained.length > 0 ? unexplained : ['(the same members, in another order)']).slice(0, 8))
      console.log(`  ${line}`);
  }
  console.log(
    `${both.length} reports in both; ${differing} unexplained difference(s) (a report only one side has, an ` +
      `exit code, a report that differs)` +
      `${noise ? `; ${noiseOnly} report(s) differing only where ${noise} differs from ${dirA}` : ''}`,
  );
  const verdictsDiffer = both.filter((f) => verdictsOf(readSnapshot(dirA, f)) !== verdictsOf(readSnapshot(dirB, f)));
  console.log(
    `verdicts (each check's id, status, tool, keyword, title, quote and specRef; summary, verdict, exit code, ` +
      `revision agreed): ` +
      `${verdictsDiffer.length === 0 ? 'identical in every report' : `differ in ${verdictsDiffer.join(', ')}`}`,
  );
  return differing === 0 && verdictsDiffer.length === 0 ? 0 : 1;
}

/** What a report concludes, without its messages and evidence: what no load or timing should change. */
function verdictsOf(text) {
  const report = JSON.parse(text);
  if (!report) return 'null';
  const checks = report.checks.map(({ id, status, tool, keyword, title, quote, specRef }) => [
    id,
    status,
    tool,
    keyword,
    title,
    quote,
    specRef,
  ]);
  return JSON.stringify([checks, report.summary, report.verdict, report.exitCode, report.wire]);
}

/** Every `<file> <JSON path>` where two snapshots differ. */
function noisePaths(dirA, dirC) {
  const paths = new Set();
  for (const f of readdirSync(dirA).filter((f) => f.endsWith('.json') && existsSync(join(dirC, f)))) {
    const [a, c] = [readSnapshot(dirA, f), readSnapshot(dirC, f)];
    for (const line of differences(JSON.parse(a), JSON.parse(c), '$', [], Infinity))
      paths.add(`${f} ${line.slice(0, line.indexOf(': '))}`);
  }
  return paths;
}

/** A snapshot's file, normalised again from raw/ (with this script's rules) when it has one. */
function readSnapshot(dir, f) {
  const raw = join(dir, 'raw', f);
  return existsSync(raw)
    ? `${JSON.stringify(normalise(JSON.parse(readFileSync(raw, 'utf8'))), null, 1)}\n`
    : readFileSync(join(dir, f), 'utf8');
}

// ---------------------------------------------------------------------------------------------------------- audits

/** A built module, wherever the build put it: the first of `paths` (relative to the root) that exists. */
async function built(what, paths) {
  for (const path of paths) if (existsSync(join(ROOT, path))) return import(pathToFileURL(join(ROOT, path)).href);
  throw new Error(`behaviour-snapshot: no built ${what} (${paths.join(', ')}): run npm run build first`);
}
// Before issue 42 the reference server and the revision list were built into dist/src/.
const defects = async () =>
  (
    await built('defect table', [
      'dist/reference/server/defects/index.js',
      'dist/reference/server/defects.js',
      'dist/src/reference-server/defects.js',
    ])
  ).DEFECTS;
const initializeRevisions = async () =>
  (await built('revision list', ['dist/src/core/revision.js'])).INITIALIZE_REVISIONS;

const command = (script, ...args) =>
  [process.execPath, script, ...args].map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w}'`)).join(' ');
const referenceCommand = (...args) => command(REFERENCE, ...args);

/** test/defects.test.ts: the transport a defect is proven on. */
function provenOn(defect) {
  const transports = defect.transports ?? ['stdio', 'http'];
  if (transports.length === 1) return transports[0];
  let hash = 0;
  for (const char of defect.name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return transports[hash % 2];
}

const revisionAuditArgs = (revision) => (revision === '2024-11-05' ? ['--allow-all-tools'] : []);

/** An audit: a name, the reference server's flags (or an HTTP server script) and the audit's flags. */
function referenceAudits(defectList, revisions) {
  const audits = [
    { name: 'clean-stdio', transport: 'stdio', server: [], audit: [] },
    { name: 'clean-http-json', transport: 'http', server: [], audit: [] },
    { name: 'clean-http-sse', transport: 'http', server: ['--sse'], audit: [] },
  ];
  for (const revision of revisions) {
    for (const transport of ['stdio', 'http'])
      audits.push({
        name: `clean-${revision}-${transport}`,
        transport,
        server: ['--protocol-version', revision],
        audit: revisionAuditArgs(revision),
      });
  }
  for (const defect of defectList.filter((d) => !d.chaos && d.breaks !== null)) {
    const server = [...(defect.revision ? ['--protocol-version', defect.revision] : []), '--defect', defect.name];
    const runs = defect.breaks.endsWith('.property') ? [] : ['--runs', '10'];
    audits.push({
      name: `defect-${defect.name}`,
      transport: provenOn(defect),
      server,
      audit: [...(defect.auditArgs ?? []), ...runs],
    });
  }
  return audits;
}

function realAudits() {
  const require = createRequire(join(ROOT, 'package.json'));
  const npmServer = (pkg, ...args) => {
    const manifest = require(`${pkg}/package.json`);
    const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
    return command(join(dirname(require.resolve(`${pkg}/package.json`)), bin), ...args);
  };
  const fsRoot = mkdtempSync(join(tmpdir(), 'fs-root-'));
  const sdkV2 = join(ROOT, 'test/fixtures/sdk-v2-http-server.mjs');
  return [
    {
      name: 'real-server-everything',
      command: npmServer('@modelcontextprotocol/server-everything', 'stdio'),
      audit: ['--timeout', '4000'],
    },
    {
      name: 'real-server-memory',
      command: npmServer('@modelcontextprotocol/server-memory'),
      audit: [],
      env: { MEMORY_FILE_PATH: join(tmpdir(), `mtc-memory-snapshot-${process.pid}.json`) },
    },
    {
      name: 'real-server-filesystem',
      command: npmServer('@modelcontextprotocol/server-filesystem', fsRoot),
      audit: [],
    },
    {
      name: 'real-server-sequential-thinking',
      command: npmServer('@modelcontextprotocol/server-sequential-thinking'),
      audit: [],
    },
    {
      name: 'real-server-postgres',
      command: npmServer('@modelcontextprotocol/server-postgres', 'postgresql://127.0.0.1:1/none'),
      audit: [],
    },
    {
      name: 'real-sdk-v2-stdio',
      command: command(join(ROOT, 'test/fixtures/sdk-v2-server.mjs')),
      audit: ['--list-changed-trigger', 'toggle_beta'],
    },
    { name: 'real-sdk-v2-http', script: sdkV2, serverArgs: [], audit: ['--list-changed-trigger', 'toggle_beta'] },
    {
      name: 'real-sdk-v2-http-bare-origin',
      script: sdkV2,
      serverArgs: ['--bare'],
      audit: ['--checks', 'http.origin.*'],
    },
  ];
}

/** Runs a node script that prints "listening on <url>" once it serves (test/helpers/cli.ts startHttpServer). */
async function startHttp(script, args) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${script} did not start: ${out}`)), 30_000);
    child.stdout.on('data', (c) => {
      out += c.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        done(match[1]);
      }
    });
    child.on('exit', (code) => fail(new Error(`${script} exited with ${code}: ${out}`)));
  });
  const stop = () =>
    new Promise((done) =>
      child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')),
    );
  return { url, stop };
}

async function runAudit(main, audit) {
  const outputDir = mkdtempSync(join(tmpdir(), 'mtc-snapshot-'));
  let server;
  try {
    let target;
    if (audit.command) target = ['--stdio', audit.command];
    else if (audit.script) {
      server = await startHttp(audit.script, audit.serverArgs);
      target = ['--url', server.url];
    } else if (audit.transport === 'stdio') target = ['--stdio', referenceCommand(...audit.server)];
    else {
      server = await startHttp(REFERENCE, ['--http', ...audit.server]);
      target = ['--url', server.url];
    }
    const saved = {};
    for (const [k, v] of Object.entries(audit.env ?? {})) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    const code = await main([...target, ...audit.audit, '--output-dir', outputDir, '--reporter', 'json']);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    const reportPath = join(outputDir, 'report.json');
    const report = existsSync(reportPath) ? JSON.parse(readFileSync(reportPath, 'utf8')) : null;
    return { code, report };
  } finally {
    await server?.stop();
    rmSync(outputDir, { recursive: true, force: true });
  }
}

async function snapshot(dir, { real, only, jobs }) {
  const list = [...referenceAudits(await defects(), await initializeRevisions()), ...(real ? realAudits() : [])].filter(
    (a) => !only || only.split(',').some((part) => a.name.includes(part)),
  );
  const main = (await import(pathToFileURL(MAIN).href)).main;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'raw'), { recursive: true });
  const codes = {};
  const started = performance.now();
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < list.length) {
      const audit = list[next++];
      const { code, report } = await runAudit(main, audit);
      codes[audit.name] = code;
      writeFileSync(join(dir, `${audit.name}.json`), `${JSON.stringify(normalise(report), null, 1)}\n`);
      writeFileSync(join(dir, 'raw', `${audit.name}.json`), `${JSON.stringify(report)}\n`);
      process.stderr.write(`\r${++done}/${list.length} audits, ${Math.round((performance.now() - started) / 1000)} s `);
    }
  };
  await Promise.all(Array.from({ length: jobs }, lane));
  writeFileSync(
    join(dir, 'exit-codes.json'),
    `${JSON.stringify(Object.fromEntries(Object.entries(codes).sort()), null, 1)}\n`,
  );
  process.stderr.write(`\nbehaviour-snapshot: ${list.length} reports in ${dir}\n`);
}

const argv = process.argv.slice(2);
if (argv[0] === '--compare') {
  const noiseAt = argv.indexOf('--noise');
  const noise = noiseAt < 0 ? undefined : resolve(argv.splice(noiseAt, 2)[1]);
  if (argv.length !== 3) throw new Error('usage: behaviour-snapshot.mjs --compare <dirA> <dirB> [--noise <dirA2>]');
  process.exit(compare(resolve(argv[1]), resolve(argv[2]), noise));
} else {
  const flag = (name) => {
    const at = argv.indexOf(name);
    return at < 0 ? undefined : argv.splice(at, 2)[1];
  };
  const only = flag('--only');
  const jobs = Number(flag('--jobs') ?? 2);
  const real = argv.includes('--real');
  const dir = argv.filter((a) => a !== '--real')[0];
  if (!dir)
    throw new Error(
      'usage: behaviour-snapshot.mjs <dir> [--real] [--only <substring>[,<substring>…]] [--jobs <n>] | ' +
        '--compare <dirA> <dirB>',
    );
  await snapshot(resolve(dir), { real, only, jobs });
  // Reference servers over stdio end with their audits; a warm module graph may keep timers: end here.
  process.exit(0);
}
