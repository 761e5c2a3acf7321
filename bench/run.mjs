// npm run bench: how fast the audit is against the round-trip floor, against the official suite, and at scale.
// Not a test: it prints numbers. Options: --runs N (audits per transport, default 3), --startup-runs N (default 10),
// --only build,startup,audit,floors,property,slow-tools,worst-cases,official,scale,client,revisions,fleet (default:
// all).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, REFERENCE, ROOT, audit, median, runNode, runProgram } from './measure.mjs';
import { sdkServerMissing, startHttpReference, startHttpSdkServer } from './http-server.mjs';
import { medianRoundTrip } from './round-trip.mjs';
import { ensureOfficialSuite, OFFICIAL_PACKAGE, runOfficialSuite } from './official.mjs';
import { cpus } from 'node:os';
import { judgeTargets } from './targets.mjs';

const SECTIONS = [
  'build',
  'startup',
  'audit',
  'floors',
  'property',
  'slow-tools',
  'worst-cases',
  'official',
  'scale',
  'client',
  'revisions',
  'fleet',
];
/** Fleet: this many servers, audited one by one and then as one fleet with --jobs FLEET_JOBS. */
const FLEET_SIZE = 10;
const FLEET_JOBS = 2;
/** Slow tools: every tools/call of the reference server answers this late (a tool waiting on I/O). */
const TOOL_LATENCY_MS = 10;
/**
 * Issue 31's slow servers: tools that answer this late, and failures this late from a server with FAILING_TOOLS tools.
 */
const SLOW_TOOL_MS = 500;
const FAILING_TOOLS = 25;
const RECORD_HOOK = fileURLToPath(new URL('./record-hook.mjs', import.meta.url));
const FLOOR_CLIENT = fileURLToPath(new URL('./floor-client.mjs', import.meta.url));
/** Worst cases: error answers of tools/call held this long (a tool whose failures wait on a remote API). */
const ERROR_LATENCY_MS = 500;

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1] : fallback;
}

const runs = Number(option('runs', '3'));
const startupRuns = Number(option('startup-runs', '10'));
const only = new Set(option('only', SECTIONS.join(',')).split(','));
const stdioTarget = `${process.execPath} ${REFERENCE}`;
/** What this run measured, for the targets at the end (bench/targets.mjs). */
const measured = {};

const ms = (value) => (value === undefined ? 'n/a' : `${Math.round(value)} ms`);
const mb = (value) => (value === undefined ? 'n/a' : `${Math.round(value)} MB`);
const line = (label, value) => console.log(`  ${label.padEnd(40)} ${value}`);
const summaryOf = (report) =>
  report
    ? Object.entries(report.summary)
        .map(([status, count]) => `${count} ${status}`)
        .join(', ')
    : 'no report.json';

/**
 * Where an audit's wall time went: outside the CLI's main() (Node's start-up and exit: wall − report.durationMs), from
 * main() to the target's first answer (the first request, seq 1, is sent right after the target starts; its round trip
 * waits for the target's own start-up), and the rest. Undefined without a report or its first exchange.
 */
function phasesOf(run) {
  const report = run.report;
  const first = report?.checks
    .flatMap((c) => c.evidence ?? [])
    .find((e) => e?.seq === 1 && e.sentAt && e.response !== undefined);
  if (!report || !first) return undefined;
  const untilFirstAnswer = Date.parse(first.sentAt) - Date.parse(report.startedAt) + first.durationMs;
  return { outside: run.wallMs - report.durationMs, untilFirstAnswer, rest: report.durationMs - untilFirstAnswer };
}

function medianOf(results, key) {
  const values = results.map((r) => r[key]).filter((v) => v !== undefined);
  return values.length > 0 ? median(values) : undefined;
}

/** npm's own variables from the `npm run bench` around us would point the nested npm at this project. */
const npmEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^npm_(package_|lifecycle_|command$|config_local_prefix$)/i.test(name),
    ),
  );

/**
 * Issue 41: a newcomer's first `npm run build`, as a fresh clone has it: the files git tracks (as they are in the
 * working tree) copied into an empty folder, so no dist/ and no precompiled validators, with this node_modules linked
 * in (the `npm install` before it is not counted). Its wall time, the CPU time of npm and every process under it, and
 * the load average of the minute before, on this machine's cores.
 */
async function firstBuild() {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) {
    console.log(
      `\nA fresh clone's first build: skipped (git ls-files: ${listed.stderr.trim() || listed.error?.message})`,
    );
    return;
  }
  const files = listed.stdout.split('\0').filter((file) => file && existsSync(join(ROOT, file)));
  console.log(
    `\nA fresh clone's first build, npm run build (median of ${runs}; ${files.length} tracked files copied, ` +
      `node_modules linked)`,
  );
  const results = [];
  for (let i = 0; i < runs; i += 1) {
    const clone = mkdtempSync(join(tmpdir(), 'mtc-bench-clone-'));
    try {
      for (const file of files) {
        mkdirSync(dirname(join(clone, file)), { recursive: true });
        cpSync(join(ROOT, file), join(clone, file));
      }
      symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
      const load = loadavg()[0];
      const run = await runProgram('npm', ['run', 'build', '--silent'], { cwd: clone, env: npmEnv() });
      if (
        run.code !== 0 ||
        !existsSync(join(clone, 'dist/cli/mcp-tools-conformance.js')) ||
        !existsSync(join(clone, 'dist/.precompiled.json'))
      ) {
        throw new Error(
          `the fresh clone's npm run build exited ${run.code} without the bundles and validators: ${run.stderr}`,
        );
      }
      results.push({ ...run, load });
      line(`run ${i + 1}`, `${ms(run.wallMs)} wall, ${ms(run.treeCpuMs)} CPU, load ${load.toFixed(1)}`);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  }
  const wallMs = medianOf(results, 'wallMs');
  const cpuMs = medianOf(results, 'treeCpuMs');
  const load = medianOf(results, 'load');
  line('wall time', ms(wallMs));
  if (cpuMs !== undefined)
    line(
      'CPU time (npm and every process under it)',
      `${ms(cpuMs)}: at least ${ms(cpuMs / cpus().length)} of wall time on ${cpus().length} cores`,
    );
  measured.firstBuild = { wallMs, ...(cpuMs !== undefined ? { cpuMs } : {}), cores: cpus().length, load };
}

async function startup() {
  console.log(`\nCold CLI start-up (median of ${startupRuns} runs)`);
  for (const args of [['--version'], ['--list']]) {
    const walls = [];
    for (let i = 0; i < startupRuns; i += 1) {
      const run = await runNode(CLI, args);
      if (run.code !== 0) throw new Error(`${args.join(' ')} exited ${run.code}: ${run.stderr}`);
      walls.push(run.wallMs);
    }
    line(args.join(' '), ms(median(walls)));
    if (args[0] === '--version') measured.versionMs = median(walls);
  }
  const bare = [];
  for (let i = 0; i < startupRuns; i += 1) bare.push((await runNode('-e', ['0'])).wallMs);
  line('(node -e 0, for comparison)', ms(median(bare)));
  measured.bareNodeMs = median(bare);
  line('--version / bare node', (measured.versionMs / measured.bareNodeMs).toFixed(2));
}

/**
 * `runs` audits of one target, each right after a measurement of the round-trip floor against the same server: the
 * machine's speed drifts between runs of the bench, so each audit is compared with the floor of its own moment.
 */
async function auditSeries(label, targetArgs, roundTripTarget) {
  const results = [];
  for (let i = 0; i < runs; i += 1) {
    const roundTrip = await medianRoundTrip(roundTripTarget);
    const run = await audit(targetArgs);
    const requests = run.report?.stats.requests;
    results.push({ ...run, roundTrip, ratio: requests ? run.wallMs / (requests * roundTrip) : undefined });
  }
  const last = results[results.length - 1];
  const requests = last.report?.stats.requests;
  const wall = medianOf(results, 'wallMs');
  const ratios = results.map((r) => r.ratio).filter((r) => r !== undefined);
  const range = (values, digits) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
  console.log(`\n${label} (median of ${runs} audits)`);
  line('wall time', ms(wall));
  line('requests sent (stats.requests)', String(requests ?? 'n/a'));
  line(
    'median round trip (tools/list)',
    `${medianOf(results, 'roundTrip').toFixed(2)} ms (${range(
      results.map((r) => r.roundTrip),
      2,
    )}, one before each audit)`,
  );
  line(
    'overhead wall / (requests × rtt)',
    ratios.length ? `${median(ratios).toFixed(1)} (${range(ratios, 1)}, each audit against its own round trip)` : 'n/a',
  );
  const phases = results.map(phasesOf);
  if (phases.every((p) => p !== undefined)) {
    const part = (key) => ms(median(phases.map((p) => p[key])));
    line(
      'where the wall time went',
      `${part('outside')} Node start-up and exit of the CLI, ${part('untilFirstAnswer')} until the target's`,
    );
    const why = roundTripTarget.stdio ? "the target's own start-up" : 'loading the HTTP client, connecting';
    line('', `first answer (${why}), ${part('rest')} of audit after it`);
  }
  line('CPU time (CLI process)', ms(medianOf(results, 'cpuMs')));
  // Over stdio the targets are the CLI's children, so their CPU is counted too; over HTTP the server is the bench's.
  const treeCpuMs = roundTripTarget.stdio ? medianOf(results, 'treeCpuMs') : undefined;
  if (treeCpuMs !== undefined) {
    line(
      'CPU time (CLI and target processes)',
      `${ms(treeCpuMs)}: at least ${ms(treeCpuMs / cpus().length)} of wall time on ${cpus().length} cores`,
    );
  }
  line('peak RSS (CLI process)', mb(medianOf(results, 'maxRssMb')));
  line('result', `${summaryOf(last.report)} (exit ${last.code})`);
  return {
    wall,
    requests,
    report: last.report,
    ratio: ratios.length ? median(ratios) : undefined,
    cpuMs: medianOf(results, 'cpuMs'),
    treeCpuMs,
  };
}

async function audits() {
  const stdio = await auditSeries('Audit of the reference server over stdio', ['--stdio', stdioTarget], {
    stdio: stdioTarget,
  });
  measured.stdioWallMs = stdio.wall;
  measured.stdioRatio = stdio.ratio;
  if (stdio.cpuMs !== undefined && stdio.treeCpuMs !== undefined)
    measured.stdioCpu = { cliMs: stdio.cpuMs, allMs: stdio.treeCpuMs, cores: cpus().length };
  const server = await startHttpReference();
  try {
    await auditSeries('Audit of the reference server over Streamable HTTP', ['--url', server.url], { url: server.url });
  } finally {
    await server.stop();
  }
}

async function property() {
  console.log('\nProperty-based tool calls');
  const help = await runNode(CLI, ['--help']);
  if (!/--runs\b/.test(help.stdout) || !/--seed\b/.test(help.stdout)) {
    line('calls per second (stdio)', 'n/a (no property suite in this build)');
    return;
  }
  // The difference between a short and a long run isolates the property calls from the rest of the audit.
  const calls = (report) => Object.values(report?.stats.toolsCalled ?? {}).reduce((sum, n) => sum + n, 0);
  const small = await audit(['--stdio', stdioTarget, '--seed', '1', '--runs', '10']);
  const large = await audit(['--stdio', stdioTarget, '--seed', '1', '--runs', '1000']);
  const extraCalls = calls(large.report) - calls(small.report);
  const extraSeconds = (large.wallMs - small.wallMs) / 1000;
  line('tool calls (--runs 10 / --runs 1000)', `${calls(small.report)} / ${calls(large.report)}`);
  const perSecond = extraCalls > 0 && extraSeconds > 0 ? extraCalls / extraSeconds : undefined;
  line('calls per second (stdio)', perSecond === undefined ? 'n/a (no extra calls)' : Math.round(perSecond).toString());
  measured.callsPerSecond = perSecond;
}

/**
 * Issue 31's rows. Each audit of the reference server against its round-trip floor: the messages that audit sent
 * (recorded once, from an audit run with bench/record-hook.mjs), sent again by a bare client (bench/floor-client.mjs,
 * its own Node process: stdio spawns the same server, HTTP one undici connection to the same one) back to back, each
 * after the answer to the one before. Audit and floor alternate, `runs` pairs per transport, so that each ratio
 * compares two measurements of the same moment. Then the slow servers with default flags, once each.
 */
async function floors() {
  console.log(`\nAudits against their round-trip floor, interleaved (median of ${runs} pairs each)`);
  const server = await startHttpReference();
  const dir = mkdtempSync(join(tmpdir(), 'mtc-bench-floor-'));
  try {
    const rows = [
      { kind: 'stdio', target: ['--stdio', stdioTarget], floor: ['--stdio', stdioTarget] },
      { kind: 'http', target: ['--url', server.url], floor: ['--url', server.url] },
    ];
    for (const row of rows) {
      row.recording = join(dir, `${row.kind}.jsonl`);
      await audit(row.target, [], { imports: [RECORD_HOOK], env: { BENCH_RECORD_FILE: row.recording } });
      row.pairs = [];
    }
    for (let i = 0; i < runs; i += 1) {
      for (const row of rows) {
        const run = await audit(row.target);
        const floor = await runNode(FLOOR_CLIENT, [row.recording, ...row.floor]);
        if (floor.code !== 0) throw new Error(`the ${row.kind} floor client exited ${floor.code}: ${floor.stderr}`);
        // Over stdio also the floor with a target process per connection the audit opened: what the checks' own
        // connections cost, next to (not instead of) the issue's floor of one process.
        const own =
          row.kind === 'stdio'
            ? await runNode(FLOOR_CLIENT, [row.recording, ...row.floor, '--per-connection'])
            : undefined;
        if (own && own.code !== 0) throw new Error(`the per-connection floor client exited ${own.code}: ${own.stderr}`);
        row.pairs.push({
          auditMs: run.wallMs,
          floorMs: floor.wallMs,
          requests: run.report?.stats.requests,
          sent: JSON.parse(floor.stdout),
          ...(own ? { perConnectionMs: own.wallMs, processes: JSON.parse(own.stdout).processes } : {}),
        });
      }
    }
    for (const row of rows) {
      const ratios = row.pairs.map((p) => p.auditMs / p.floorMs);
      const last = row.pairs[row.pairs.length - 1];
      const ratio = median(ratios);
      line(
        `${row.kind} audit / its floor`,
        `${ratio.toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
      );
      line(
        '',
        `audit ${ms(median(row.pairs.map((p) => p.auditMs)))} (${last.requests ?? 'n/a'} requests on its own ` +
          `connection), floor ${ms(median(row.pairs.map((p) => p.floorMs)))}`,
      );
      line(
        '',
        `(${last.sent.sent} messages of every connection of the audit, ${last.sent.skipped} long-lived ones ` +
          `left out, ${last.sent.unanswered} unanswered)`,
      );
      if (last.perConnectionMs !== undefined) {
        const perConnection = median(row.pairs.map((p) => p.perConnectionMs));
        line(
          '',
          `with a target process per connection of the audit (${last.processes}): floor ${ms(perConnection)}, ` +
            `audit / it ${median(row.pairs.map((p) => p.auditMs / p.perConnectionMs)).toFixed(2)} (not a target)`,
        );
      }
      measured[row.kind === 'stdio' ? 'stdioFloor' : 'httpFloor'] = {
        ratio,
        auditMs: median(row.pairs.map((p) => p.auditMs)),
        floorMs: median(row.pairs.map((p) => p.floorMs)),
      };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.stop();
  }

  console.log(`\nSlow servers, default flags (one audit each)`);
  const decided = (report) => ({
    budgetSkips: report?.cutShort?.checksSkipped ?? 0,
    errors: report?.checks.filter((c) => c.status === 'error').length,
  });
  const slow = await startHttpReference(['--tool-latency-ms', String(SLOW_TOOL_MS)]);
  try {
    const pooled = await audit(['--url', slow.url]);
    const one = await audit(['--url', slow.url], ['--http-connections', '1']);
    line(
      `tools answering in ${SLOW_TOOL_MS} ms, HTTP`,
      `${ms(pooled.wallMs)} (${pooled.report?.stats.requests ?? 'n/a'} requests; ${summaryOf(pooled.report)})`,
    );
    line(
      'the same with --http-connections 1',
      `${ms(one.wallMs)} (${one.report?.stats.requests ?? 'n/a'} requests; ${summaryOf(one.report)}): ` +
        `${(pooled.wallMs / one.wallMs).toFixed(2)} of it`,
    );
    measured.slowToolsHttp = { wallMs: pooled.wallMs, oneConnectionMs: one.wallMs };
  } finally {
    await slow.stop();
  }
  const failingFlags = ['--failing-tools', String(FAILING_TOOLS), '--error-latency-ms', String(SLOW_TOOL_MS)];
  const failing = await startHttpReference(failingFlags);
  try {
    measured.failingTools = {};
    for (const [kind, target] of [
      ['stdio', ['--stdio', `${stdioTarget} ${failingFlags.join(' ')}`]],
      ['http', ['--url', failing.url]],
    ]) {
      const run = await audit(target);
      const { budgetSkips, errors } = decided(run.report);
      line(
        `${FAILING_TOOLS} tools failing after ${SLOW_TOOL_MS} ms, ${kind}`,
        `${ms(run.wallMs)} (${run.report?.stats.requests ?? 'n/a'} requests; ${summaryOf(run.report)}; ` +
          `${budgetSkips} skipped for budget)`,
      );
      measured.failingTools[kind] = { wallMs: run.wallMs, budgetSkips, errors };
    }
  } finally {
    await failing.stop();
  }
}

/**
 * Tools that take a while: the wall time is then set by how many calls are in flight at once, not by our CPU. Over
 * stdio requests overlap (--concurrency); over HTTP over the --http-connections pool (--concurrency by default).
 */
async function slowTools() {
  console.log(
    `\nSlow tools: every tools/call answered ${TOOL_LATENCY_MS} ms late (--tool-latency-ms ${TOOL_LATENCY_MS}` +
      `), median of ${runs} audits`,
  );
  const latency = ['--tool-latency-ms', String(TOOL_LATENCY_MS)];
  const row = async (label, targetArgs, extraArgs = []) => {
    const results = [];
    for (let i = 0; i < runs; i += 1) results.push(await audit(targetArgs, extraArgs));
    const last = results[results.length - 1];
    line(
      label,
      `${ms(medianOf(results, 'wallMs'))} (${last.report?.stats.requests ?? 'n/a'} requests; ` +
        `${summaryOf(last.report)})`,
    );
  };
  await row('stdio', ['--stdio', `${stdioTarget} ${latency.join(' ')}`]);
  const server = await startHttpReference(latency);
  try {
    await row('HTTP (default: --concurrency connections)', ['--url', server.url]);
    await row('HTTP, --http-connections 1', ['--url', server.url], ['--http-connections', '1']);
  } finally {
    await server.stop();
  }
}

/**
 * Misbehaving and slow servers, default audit settings, side by side with the scripted-only audit of the clean
 * reference server: wall time, requests, and what each row is judged by (bench/targets.mjs).
 */
async function worstCases() {
  console.log(`\nWorst cases over stdio (default settings; median of ${runs} audits each)`);
  const rows = [
    ['clean, scripted checks only', '', ['--exclude-checks', '*.property']],
    ['clean, every check', ''],
    [`slow errors (${ERROR_LATENCY_MS} ms per error answer)`, `--error-latency-ms ${ERROR_LATENCY_MS}`],
    ['looping cursor (cursor-loop-fresh)', '--defect cursor-loop-fresh'],
    ['looping cursor (cursor-loop)', '--defect cursor-loop'],
    ['hanging read-only tool (hang-get-time)', '--defect hang-get-time'],
  ];
  const worst = {};
  for (const [label, flags, extra = []] of rows) {
    const results = [];
    for (let i = 0; i < runs; i += 1) results.push(await audit(['--stdio', `${stdioTarget} ${flags}`.trim()], extra));
    const last = results[results.length - 1];
    const report = last.report;
    const budgetSkips = report === undefined ? undefined : (report.cutShort?.checksSkipped ?? 0);
    const uniqueness = report?.checks.filter(
      (c) => c.id.startsWith('tools.name.unique') && c.status !== 'pass' && c.status !== 'skip',
    ).length;
    const wallMs = medianOf(results, 'wallMs');
    const requests = report?.stats.requests;
    line(
      label,
      `${ms(wallMs)}, ${requests ?? 'n/a'} requests; ${summaryOf(report)}; ${budgetSkips ?? 'n/a'} skipped for ` +
        `budget (exit ${last.code})`,
    );
    worst[flags || (extra.length ? 'scripted' : 'clean')] = {
      wallMs,
      requests,
      budgetSkips,
      uniqueness,
      toolsCalled: report?.stats.toolsCalled,
    };
  }
  measured.worst = worst;
}

async function official() {
  console.log(
    `\nSide by side with the official suite (${OFFICIAL_PACKAGE}, Node 22) over Streamable HTTP, median of ` +
      `${runs} runs each`,
  );
  const problem = ensureOfficialSuite();
  if (problem) {
    line('skipped', problem);
    return;
  }
  measured.official = await onServer(startHttpReference, [
    'on the reference server: it speaks 2026-07-28 only, and the official suite the 2025-11-25 handshake',
    '(initialize), so most of the official scenarios fail there',
  ]);
  const missing = sdkServerMissing();
  if (missing) {
    console.log(`  on the SDK v2 fixture server: skipped (${missing})`);
    return;
  }
  measured.officialSdk = await onServer(startHttpSdkServer, [
    'on the SDK v2 fixture server (test/fixtures, @modelcontextprotocol/server 2.4.0): it speaks both wires, so',
    'the official scenarios get past initialize (most then fail: it has none of their test_* tools, resources, ' +
      'prompts)',
  ]);
}

/** Starts an HTTP server, prints what it is, runs both suites against it side by side, and stops it. */
async function onServer(start, heading) {
  const server = await start();
  try {
    for (const text of heading) console.log(`  ${text}`);
    return await sideBySide(server.url);
  } finally {
    await server.stop();
  }
}

/**
 * Ours and theirs against one server, interleaved `runs` times. The official suite has no property-based search: the
 * like-for-like row leaves ours out too. Returns what the target judges: every check of ours against theirs.
 */
async function sideBySide(url) {
  const rows = { ours: [], one: [], scripted: [], theirs: [] };
  for (let i = 0; i < runs; i += 1) {
    rows.ours.push(await audit(['--url', url]));
    rows.one.push(await audit(['--url', url, '--http-connections', '1']));
    rows.scripted.push(await audit(['--url', url, '--exclude-checks', '*.property']));
    rows.theirs.push(await runOfficialSuite(url));
  }
  const wall = (name) => medianOf(rows[name], 'wallMs');
  const ran = (report) => report?.checks.filter((c) => c.status !== 'skip').length;
  const described = (run) =>
    `${ran(run.report) ?? 'n/a'} of ${run.report?.checks.length ?? 'n/a'} (${summaryOf(run.report)}), ` +
    `${run.report?.stats.requests ?? 'n/a'} requests`;
  const last = (name) => rows[name][rows[name].length - 1];
  const theirs = last('theirs');
  line('ours, every check: wall time', ms(wall('ours')));
  line('ours, every check: checks run', described(last('ours')));
  line('ours, every check, --http-connections 1', `${ms(wall('one'))} (${summaryOf(last('one').report)})`);
  line('ours, scripted checks: wall time', ms(wall('scripted')));
  line('ours, scripted checks: checks run', described(last('scripted')));
  line('official: wall time', `${ms(wall('theirs'))} (${rows.theirs.map((r) => Math.round(r.wallMs)).join(', ')})`);
  line('official: checks run', `${theirs.checks} (${theirs.passed} passed; exit ${theirs.code})`);
  line(
    'wall time official / ours',
    `${(wall('theirs') / wall('ours')).toFixed(2)} (every check), ${(wall('theirs') / wall('one')).toFixed(2)} ` +
      `(every check, --http-connections 1), ${(wall('theirs') / wall('scripted')).toFixed(2)} (scripted)`,
  );
  const oursChecks = ran(last('ours').report);
  return oursChecks === undefined
    ? undefined
    : { oursMs: wall('ours'), oursChecks, theirsMs: wall('theirs'), theirsChecks: theirs.checks };
}

async function scale() {
  for (const [label, flags] of [
    ['10,000 tools over 101 pages (--scale-tools 10000)', '--scale-tools 10000'],
    ['one 5 MB tools/list page (--big-page-mb 5)', '--big-page-mb 5'],
  ]) {
    const run = await audit(['--stdio', `${stdioTarget} ${flags}`]);
    console.log(`\nScale: ${label}, over stdio`);
    line('wall time', ms(run.wallMs));
    line('requests sent (stats.requests)', String(run.report?.stats.requests ?? 'n/a'));
    line('CPU time (CLI process)', ms(run.cpuMs));
    line('peak RSS (CLI process)', mb(run.maxRssMb));
    line('result', `${summaryOf(run.report)} (exit ${run.code})`);
    if (flags.startsWith('--scale-tools')) measured.tenThousandTools = { wallMs: run.wallMs, maxRssMb: run.maxRssMb };
  }
  const server = await startHttpReference(['--scale-tools', '10000']);
  try {
    const run = await audit(['--url', server.url]);
    console.log('\nScale: 10,000 tools over 101 pages (--scale-tools 10000), over Streamable HTTP');
    line('wall time', ms(run.wallMs));
    line('requests sent (stats.requests)', String(run.report?.stats.requests ?? 'n/a'));
    line('CPU time (CLI process)', ms(run.cpuMs));
    line('peak RSS (CLI process)', mb(run.maxRssMb));
    line('result', `${summaryOf(run.report)} (exit ${run.code})`);
    measured.tenThousandToolsHttp = { wallMs: run.wallMs, maxRssMb: run.maxRssMb };
  } finally {
    await server.stop();
  }
}

/**
 * Client mode: whole audits of a client (scripted server, canary, the client process, the checks) next to the start-up
 * of a bare Node process, which every client run pays on top of the CLI's own; and a hanging client, bounded by
 * --max-duration. The scripted server answers `echo` 100 ms late on purpose (base.req.id-unique-inflight).
 */
async function client() {
  console.log(`\nClient mode (median of ${runs} audits each)`);
  const referenceClient = `${process.execPath} ${join(ROOT, 'dist/reference/client/main.js')}`;
  const sdkDriver = `${process.execPath} ${join(ROOT, 'examples/clients/sdk-v2/driver.mjs')}`;
  const initializeReferenceClient = `${referenceClient} --protocol-version 2025-11-25`;
  const sdkV1Driver = `${process.execPath} ${join(ROOT, 'examples/clients/sdk-v1/driver.mjs')}`;
  const floor = [];
  for (let i = 0; i < runs; i += 1) floor.push((await runNode('-e', [''])).wallMs);
  line('a bare node process (each client pays it)', ms(median(floor)));
  const rows = [
    ['reference client, HTTP', ['client', '--command', referenceClient]],
    ['reference client, stdio', ['client', '--transport', 'stdio', '--command', referenceClient]],
    ['SDK v2 client, HTTP', ['client', '--command', sdkDriver]],
    ['SDK v2 client, stdio', ['client', '--transport', 'stdio', '--command', sdkDriver]],
    ['reference client on 2025-11-25, HTTP', ['client', '--command', initializeReferenceClient]],
    [
      'reference client on 2025-11-25, stdio',
      ['client', '--transport', 'stdio', '--command', initializeReferenceClient],
    ],
    ['SDK v1 client (2025-11-25), HTTP', ['client', '--command', sdkV1Driver]],
    ['SDK v1 client (2025-11-25), stdio', ['client', '--transport', 'stdio', '--command', sdkV1Driver]],
    [
      'hanging client, --max-duration 2000',
      ['client', '--command', `${process.execPath} -e "setInterval(() => {}, 1000)"`, '--max-duration', '2000'],
    ],
  ];
  for (const [label, args] of rows) {
    const results = [];
    for (let i = 0; i < runs; i += 1) results.push(await audit(args));
    const last = results[results.length - 1];
    line(
      label,
      `${ms(medianOf(results, 'wallMs'))}, ${last.report?.client?.messages ?? 'n/a'} messages; ` +
        `${summaryOf(last.report)} (exit ${last.code})`,
    );
  }
}

/**
 * --revisions all against one audit, interleaved, over stdio: the SDK v1 fixture server of the tests (initialize
 * revisions 2024-11-05 to 2025-11-25, no server/discover) and the reference server (2026-07-28 only, so the four
 * initialize revisions are each refused at once). The audits run one after another, so the cost adds up.
 */
async function revisions() {
  console.log(`\n--revisions all against one audit, over stdio (median of ${runs} interleaved runs each)`);
  const sdkV1 = `${process.execPath} ${join(ROOT, 'test/fixtures/sdk-v1-server.mjs')}`;
  for (const [label, target] of [
    ['SDK v1 fixture server', sdkV1],
    ['reference server', stdioTarget],
  ]) {
    const one = [];
    const all = [];
    for (let i = 0; i < runs; i += 1) {
      one.push(await audit(['--stdio', target]));
      all.push(await audit(['--stdio', target, '--revisions', 'all']));
    }
    const report = all[all.length - 1].report;
    const entries = report?.revisions ?? [];
    const requests = entries.reduce((sum, e) => sum + (e.run?.stats.requests ?? 0), 0);
    const perRevision = entries
      .map((e) => `${e.revision} ${e.status === 'audited' ? `${Math.round(e.run.durationMs)} ms` : 'not supported'}`)
      .join(', ');
    line(
      `${label}: one audit (auto)`,
      `${ms(medianOf(one, 'wallMs'))}, ${one[one.length - 1].report?.stats.requests ?? 'n/a'} requests, wire ` +
        `${one[one.length - 1].report?.wire.protocolVersion ?? 'n/a'}`,
    );
    line(
      `${label}: --revisions all`,
      `${ms(medianOf(all, 'wallMs'))}, ${requests} requests, ` +
        `${entries.filter((e) => e.status === 'audited').length} of ${entries.length} revisions audited (exit ` +
        `${all[all.length - 1].code})`,
    );
    line('', `per revision (last run): ${perRevision}`);
    line(
      '',
      `ratio ${(medianOf(all, 'wallMs') / medianOf(one, 'wallMs')).toFixed(1)}; CPU of the CLI ` +
        `${ms(medianOf(one, 'cpuMs'))} → ${ms(medianOf(all, 'cpuMs'))}, peak RSS ${mb(medianOf(one, 'maxRssMb'))}` +
        ` → ${mb(medianOf(all, 'maxRssMb'))}`,
    );
  }
}

/**
 * The fleet's servers: the reference server over stdio, plain, as an initialize-wire server, with tools that wait on
 * I/O (--tool-latency-ms, as real servers' tools wait on their APIs) and with defects, and two over Streamable HTTP.
 */
const FLEET_STDIO = [
  [],
  ['--tool-latency-ms', String(TOOL_LATENCY_MS)],
  ['--protocol-version', '2025-11-25'],
  ['--protocol-version', '2025-06-18', '--tool-latency-ms', String(TOOL_LATENCY_MS)],
  ['--defect', 'tool-without-description'],
  ['--defect', 'annotation-not-boolean'],
  ['--defect', 'no-cache-hints', '--tool-latency-ms', String(TOOL_LATENCY_MS)],
  ['--defect', 'tool-name-with-space'],
];
const FLEET_HTTP = [[], ['--tool-latency-ms', String(TOOL_LATENCY_MS)]];

/**
 * A fleet of ten servers with --jobs 2 against the sum of their single audits, in one run, interleaved: each of --runs
 * rounds audits the ten one after another and as one fleet, in alternating order (so that a change in the machine's
 * load falls on both), and the medians are compared.
 */
async function fleet() {
  console.log(
    `\nA fleet of ${FLEET_SIZE} servers with --jobs ${FLEET_JOBS} against the sum of their single audits (` +
      `${runs} interleaved rounds)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'mtc-bench-fleet-'));
  const http = await Promise.all(FLEET_HTTP.map((args) => startHttpReference(args)));
  try {
    const servers = [
      ...FLEET_STDIO.map((args, i) => ({
        name: `stdio-${i + 1}`,
        entry: { command: process.execPath, args: [REFERENCE, ...args] },
        target: ['--stdio', [process.execPath, REFERENCE, ...args].join(' ')],
      })),
      ...http.map((server, i) => ({
        name: `http-${i + 1}`,
        entry: { type: 'http', url: server.url },
        target: ['--url', server.url],
      })),
    ];
    if (servers.length !== FLEET_SIZE)
      throw new Error(`the bench fleet has ${servers.length} servers, not ${FLEET_SIZE}`);
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: Object.fromEntries(servers.map(({ name, entry }) => [name, entry])) }),
    );
    const singles = [];
    const singlesCpu = [];
    const fleets = [];
    let last;
    const oneByOne = async () => {
      let sum = 0;
      let cpu = 0;
      for (const { target } of servers) {
        const run = await audit(target);
        sum += run.wallMs;
        cpu += run.treeCpuMs ?? NaN;
      }
      singles.push(sum);
      singlesCpu.push(cpu);
    };
    const asFleet = async () => {
      const run = await runNode(CLI, [
        'fleet',
        file,
        '--jobs',
        String(FLEET_JOBS),
        '--reporter',
        'json',
        '--output-dir',
        join(dir, 'out'),
      ]);
      fleets.push(run.wallMs);
      last = { code: run.code, report: JSON.parse(readFileSync(join(dir, 'out', 'fleet.json'), 'utf8')) };
    };
    for (let round = 0; round < runs; round++) {
      if (round % 2 === 0) {
        await oneByOne();
        await asFleet();
      } else {
        await asFleet();
        await oneByOne();
      }
    }
    // CPU of the CLI and the stdio targets it started (the HTTP servers are the bench's own: not counted), Linux only.
    const cpuMs = singlesCpu.every(Number.isFinite) ? median(singlesCpu) : undefined;
    measured.fleet = {
      fleetMs: median(fleets),
      singlesMs: median(singles),
      servers: FLEET_SIZE,
      jobs: FLEET_JOBS,
      ...(cpuMs !== undefined ? { cpuMs, cores: cpus().length } : {}),
    };
    line(
      `${FLEET_SIZE} single audits, one after another`,
      `${ms(median(singles))} (median; rounds: ${singles.map(ms).join(', ')})`,
    );
    line(`fleet --jobs ${FLEET_JOBS}`, `${ms(median(fleets))} (median; rounds: ${fleets.map(ms).join(', ')})`);
    line(
      '',
      `last fleet: ${Object.entries(last.report.summary)
        .filter(([, n]) => n > 0)
        .map(([o, n]) => `${n} ${o}`)
        .join(', ')}; exit ${last.code}`,
    );
    line(
      '',
      `ratio ${(median(fleets) / median(singles)).toFixed(2)}; per round ` +
        `${fleets.map((f, i) => (f / singles[i]).toFixed(2)).join(', ')}`,
    );
    if (cpuMs !== undefined)
      line(
        '',
        `CPU of the single audits ${ms(cpuMs)} (median): ${(cpuMs / median(singles)).toFixed(2)} cores busy ` +
          `while they ran, of ${cpus().length}`,
      );
  } finally {
    await Promise.all(http.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

function targets() {
  console.log(
    `\nTargets of the performance issue, on this machine (${cpus()[0]?.model ?? 'unknown CPU'}, Node ` +
      `${process.version})`,
  );
  for (const row of judgeTargets(measured)) {
    console.log(`  ${(row.met === undefined ? '-' : row.met ? 'met' : 'NOT met').padEnd(8)} ${row.name}: ${row.value}`);
  }
}

if (!existsSync(CLI)) {
  console.error('bench: dist/ is missing; run `npm run build` first (npm run bench does)');
  process.exit(2);
}
console.log(
  `mcp-tools-conformance bench: Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'})`,
);
for (const section of SECTIONS) {
  if (!only.has(section)) continue;
  await {
    build: firstBuild,
    startup,
    audit: audits,
    floors,
    property,
    'slow-tools': slowTools,
    'worst-cases': worstCases,
    official,
    scale,
    client,
    revisions,
    fleet,
  }[section]();
}
targets();
