#!/usr/bin/env node
// The census: the npm servers the tests install and two SDK fixture servers, audited as one fleet with the default
// (safe) flags and, where the sandbox is available, again with --sandbox; written to docs/census.json (the verdicts,
// as data) and docs/census.md (the fleet's table, and the depth in safe mode and under --sandbox side by side). Needs
// `npm run build`; starts every server from node_modules, so no network is used. test/census.test.ts runs the same
// fleet and compares its verdicts with docs/census.json: a change in any verdict shows in review.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '..');
/** The census's host file; its paths are relative to the repository root, where the fleet runs. */
export const CENSUS_FILE = 'test/fixtures/census/mcp.json';
export const CENSUS_JSON = 'docs/census.json';
export const CENSUS_MD = 'docs/census.md';
/**
 * Every server's budget: generous for a loaded 2-core machine (the safe run takes 15-20 s there, the run under
 * --sandbox 20-30 s).
 */
export const CENSUS_FLAGS = ['--jobs', '2', '--max-duration', '120000', '--hosts', 'all'];

/** The flag of the census's second run: every stdio server in a throwaway sandbox, every listed tool callable. */
export const SANDBOX_FLAGS = ['--sandbox'];
/** The annotation-honesty checks, judged from what each call changed (only under --sandbox). */
export const HONESTY_CHECKS = [
  'tools.annotations.read-only-honest',
  'tools.annotations.destructive-honest',
  'tools.annotations.idempotent-honest',
];

/**
 * The census's arguments of our CLI, writing fleet.json into `outputDir`; `extra` after the census's flags
 * (SANDBOX_FLAGS for its second run).
 * @param {string} outputDir
 * @param {string[]} [extra]
 */
export function censusArgs(outputDir, extra = []) {
  return ['fleet', CENSUS_FILE, ...CENSUS_FLAGS, ...extra, '--reporter', 'json', '--output-dir', outputDir];
}

/** @param {string[]} ids */
const unique = (ids) => [...new Set(ids)];

/**
 * What the census keeps of a fleet.json: per server what a verdict is made of, nothing that varies from run to run
 * (times, dates, messages that quote timings).
 * @param {import('../src/model/fleet.js').FleetReport} fleet
 * @param {Record<string, string>} [packages] the npm package (name@version) of a server, by server name
 */
export function censusOf(fleet, packages = {}) {
  return {
    file: CENSUS_FILE,
    flags: CENSUS_FLAGS.join(' '),
    summary: Object.fromEntries(Object.entries(fleet.summary).filter(([, n]) => n > 0)),
    servers: fleet.servers.map((s) => {
      const checks = s.report?.checks ?? [];
      const of = (/** @type {string} */ status) => unique(checks.filter((c) => c.status === status).map((c) => c.id));
      return {
        name: s.name,
        ...(packages[s.name] ? { package: packages[s.name] } : {}),
        transport: s.transport,
        revision: s.protocolVersion ?? null,
        outcome: s.outcome,
        fails: of('fail'),
        warns: of('warn'),
        errors: of('error'),
        depth: s.depth
          ? {
              toolsCalled: s.depth.toolsCalled,
              toolsListed: s.depth.toolsListed,
              skippedForNoCallableTool: s.depth.skippedForNoCallableTool,
            }
          : null,
        hosts: hostsOf(s.report?.hosts),
      };
    }),
    findings: fleet.findings.map((f) => ({ id: f.id, servers: f.servers, tools: f.tools })),
  };
}

/**
 * Per host, the tools it would refuse (blocked) or take changed (degraded), each with the rules that decided it.
 * @param {import('../src/model/hosts.js').HostsReport | undefined} hosts
 */
function hostsOf(hosts) {
  if (!hosts) return null;
  /** @param {import('../src/model/hosts.js').HostResult} host @param {string} verdict */
  const tools = (host, verdict) =>
    host.tools
      .filter((t) => t.verdict === verdict)
      .map((t) => ({ tool: t.tool, rules: unique(t.findings.map((f) => f.rule)) }));
  return Object.fromEntries(
    hosts.hosts.map((h) => [
      h.host,
      { listed: h.tools.length, blocked: tools(h, 'blocked'), degraded: tools(h, 'degraded') },
    ]),
  );
}

/** @typedef {ReturnType<typeof censusOf>} Census */

/** The worse of two statuses of one check, for what a server got on it over all its tools. */
const RANK = { error: 4, fail: 3, warn: 2, pass: 1, skip: 0 };

/**
 * What the census keeps of the fleet run with --sandbox: the same as censusOf, and per server whether it was
 * sandboxed (a server reached by URL keeps safe mode), what it got on each annotation-honesty check (its warnings
 * with their tools), and which tools' calls changed files (how many of their calls, the kinds of change and the
 * folders, relative to the repository root; never the names the generated arguments gave the files).
 * @param {import('../src/model/fleet.js').FleetReport} fleet
 * @param {Record<string, string>} [packages]
 * @param {string} [root] the folder the fleet ran in, that overlaid paths are written relative to
 */
export function sandboxCensusOf(fleet, packages = {}, root = ROOT) {
  const base = censusOf(fleet, packages);
  return {
    flags: [...CENSUS_FLAGS, ...SANDBOX_FLAGS].join(' '),
    summary: base.summary,
    servers: base.servers.map((server, i) => {
      const result = fleet.servers[i];
      const checks = result.report?.checks ?? [];
      /** @type {Record<string, string>} */
      const honesty = {};
      for (const c of checks.filter((c) => HONESTY_CHECKS.includes(c.id))) {
        const short = c.id.replace('tools.annotations.', '');
        if (honesty[short] === undefined || RANK[c.status] > RANK[honesty[short]]) honesty[short] = c.status;
      }
      const warned = unique(
        checks
          .filter((c) => HONESTY_CHECKS.includes(c.id) && c.status === 'warn')
          .map((c) => JSON.stringify([c.id, c.tool ?? null])),
      );
      const honestyWarnings = warned.map((w) => JSON.parse(w)).map(([id, tool]) => ({ id, tool }));
      /** @type {Record<string, { calls: number, callsWithChanges: number, kinds: string[], folders: string[] }>} */
      const changedFiles = {};
      for (const [tool, effects] of Object.entries(result.report?.effects ?? {})) {
        if (effects.callsWithChanges === 0) continue;
        const folders = effects.changes.map((c) => {
          const place = c.path === '' ? c.root : `${c.root.replace(/\/$/, '')}/${c.path}`;
          const folder = dirname(place);
          return isAbsolute(folder) && !relative(root, folder).startsWith('..')
            ? relative(root, folder) || '.'
            : folder;
        });
        changedFiles[tool] = {
          calls: effects.calls,
          callsWithChanges: effects.callsWithChanges,
          kinds: unique(effects.changes.map((c) => c.kind)).sort(),
          folders: unique(folders).sort(),
        };
      }
      // The host column is the safe run's: the tools listed are the same under --sandbox.
      const { hosts: _sameAsSafe, ...kept } = server;
      return { ...kept, sandboxed: result.depth?.sandboxed === true, honesty, honestyWarnings, changedFiles };
    }),
    findings: base.findings,
  };
}

/** @typedef {ReturnType<typeof sandboxCensusOf>} SandboxCensus */

/**
 * The npm package and version of each server started from node_modules, by server name.
 * @param {string} root
 */
export function censusPackages(root = ROOT) {
  const file = JSON.parse(readFileSync(join(root, CENSUS_FILE), 'utf8'));
  /** @type {Record<string, string>} */
  const packages = {};
  for (const [name, entry] of Object.entries(file.mcpServers)) {
    const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(entry.args?.[0] ?? '');
    if (!match) continue;
    const manifest = JSON.parse(readFileSync(join(root, 'node_modules', match[1], 'package.json'), 'utf8'));
    packages[name] = `${manifest.name}@${manifest.version}`;
  }
  return packages;
}

const OUTCOME_WORDS = {
  conformant: 'conformant',
  failing: 'failing',
  warnings: 'warnings',
  'could-not-start': 'could not start',
  unreachable: 'unreachable',
  'needs-secret': 'needs secret',
  'timed-out': 'timed out',
  'invalid-entry': 'invalid entry',
  skipped: 'skipped',
};

/** @param {Census['servers'][number]['depth']} depth */
function depthCell(depth) {
  if (!depth) return '-';
  return (
    `${depth.toolsCalled}/${depth.toolsListed}` +
    `${depth.skippedForNoCallableTool > 0 ? `, ${depth.skippedForNoCallableTool} skipped` : ''}`
  );
}

/** @param {string[]} ids */
const idList = (ids) => (ids.length === 0 ? '' : ids.map((id) => `\`${id}\``).join(', '));

/**
 * docs/census.md: how to regenerate it, what the table shows, the table, each server's findings and the fleet's own,
 * then the same fleet under --sandbox beside it.
 * @param {Census & { sandbox?: SandboxCensus | { unavailable: string } }} census
 */
export function censusMarkdown(census) {
  const rows = census.servers.map(
    (s) =>
      `| ${s.name} | ${s.package ? `\`${s.package}\`` : 'fixture'} | ${s.transport} | ${s.revision ?? '-'} | ` +
      `${OUTCOME_WORDS[s.outcome] ?? s.outcome} | ${s.revision ? s.fails.length : '-'} | ` +
      `${s.revision ? s.warns.length : '-'} | ${depthCell(s.depth)} | ${hostsCell(s.hosts)} |`,
  );
  const findings = census.servers
    .filter((s) => s.fails.length + s.warns.length + s.errors.length > 0)
    .map(
      (s) =>
        `- **${s.name}**: ` +
        String(
          [
            s.fails.length > 0 ? `fails ${idList(s.fails)}` : '',
            s.warns.length > 0 ? `warns ${idList(s.warns)}` : '',
            s.errors.length > 0 ? `errors ${idList(s.errors)}` : '',
          ]
            .filter(Boolean)
            .join('; '),
        ),
    );
  const fleetFindings = census.findings.map(
    (f) => `- \`${f.id}\`: ${f.tools.map((t) => `\`${t}\``).join(', ')} on ${f.servers.join(', ')}`,
  );
  const totals = Object.entries(census.summary)
    .map(([outcome, n]) => `${n} ${OUTCOME_WORDS[outcome] ?? outcome}`)
    .join(', ');
  return [
    '# Census',
    '',
    '<!-- Generated by `npm run census` (scripts/census.mjs) from docs/census.json: do not edit by hand. -->',
    '',
    `The npm servers the tests install and two fixture servers built on the official TypeScript SDKs, audited as one`,
    `fleet (\`${census.file}\`) with the default, safe flags: only tools annotated \`readOnlyHint: true\` are called.`,
    `Every server is started from \`node_modules\` (or \`test/fixtures/\`): no network is used. The same fleet ` +
      `is then run`,
    'again with `--sandbox`, where every listed tool is called: [Under --sandbox](#under---sandbox).',
    '',
    '```sh',
    'npm run census   # builds, runs the fleet below, rewrites docs/census.json and docs/census.md',
    '```',
    '',
    `It runs \`mcp-tools-conformance fleet ${census.file} ${census.flags}\` from the repository root (each ` +
      `server's budget`,
    'is generous for a loaded 2-core machine; nothing is excluded, the property-based checks included).',
    "[test/census.test.ts](../test/census.test.ts) runs the same fleet and fails when any server's outcome, " +
      'revision or',
    'failing or warning check IDs differ from [census.json](census.json): a change in a verdict shows in ' +
      'review, and the',
    'census is regenerated with it.',
    '',
    'The table is the one the fleet prints on the console, without the time column (it changes from run to run): each',
    'server, the package it comes from, its transport, the revision it agreed, its outcome, its fails and warnings',
    '(distinct checks), and its **depth**: the tools called of those listed (and the checks skipped for want of a tool',
    'it may call). A tool that is not marked read-only is not called unless allowed (`--allow-tools server:tool`).',
    'The **hosts** column names the hosts that would refuse one of its tools (blocked) or take one changed (degraded):',
    '[Host compatibility](#host-compatibility).',
    '',
    `${census.servers.length} servers: ${totals}.`,
    '',
    '| Server | Package | Transport | Revision | Outcome | Fails | Warns | Depth | Hosts |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    '## Findings by server',
    '',
    ...(findings.length > 0 ? findings : ['None.']),
    '',
    'What each check ID means, and the sentence of the specification it quotes: [checks.md](checks.md) and',
    '[CONFORMANCE.md](../CONFORMANCE.md). Why these findings are justified for the npm servers:',
    '[test/real-servers.test.ts](../test/real-servers.test.ts).',
    '',
    '## What only the fleet sees',
    '',
    ...(fleetFindings.length > 0 ? fleetFindings : ['Nothing.']),
    '',
    ...hostsSection(census),
    ...sandboxSection(census),
  ].join('\n');
}

/** @typedef {NonNullable<Census['servers'][number]['hosts']>} CensusHosts */

/** @param {Census['servers'][number]['hosts']} hosts */
function hostsCell(hosts) {
  if (!hosts) return '-';
  const names = (/** @type {'blocked' | 'degraded'} */ verdict) =>
    Object.entries(hosts)
      .filter(([, h]) => h[verdict].length > 0 && (verdict === 'blocked' || h.blocked.length === 0))
      .map(([host]) => host);
  const parts = [
    names('blocked').length > 0 ? `blocked: ${names('blocked').join(', ')}` : '',
    names('degraded').length > 0 ? `degraded: ${names('degraded').join(', ')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'works on all';
}

/**
 * The census's host column in full: per host, how many servers and tools it would refuse or degrade; per server and
 * host, the tools and the rules that decided it.
 * @param {Census} census
 */
function hostsSection(census) {
  const judged = census.servers.filter((s) => s.hosts);
  if (judged.length === 0) return [];
  const hosts = Object.keys(judged[0].hosts);
  const listed = judged.reduce((n, s) => n + Object.values(s.hosts)[0].listed, 0);
  const totals = hosts.map((host) => {
    const of = (/** @type {'blocked' | 'degraded'} */ verdict) =>
      judged.filter((s) => s.hosts[host][verdict].length > 0);
    const tools = (/** @type {'blocked' | 'degraded'} */ verdict) =>
      judged.reduce((n, s) => n + s.hosts[host][verdict].length, 0);
    return (
      `| ${host} | ${of('blocked').length} | ${tools('blocked')} | ${of('degraded').length} | ` +
      `${tools('degraded')} |`
    );
  });
  const details = judged.flatMap((s) =>
    hosts.flatMap((host) =>
      ['blocked', 'degraded'].flatMap((verdict) =>
        s.hosts[host][verdict].map(
          (t) => `| ${s.name} | ${host} | ${verdict} | \`${t.tool}\` | ${t.rules.map((r) => `\`${r}\``).join(', ')} |`,
        ),
      ),
    ),
  );
  return [
    '## Host compatibility',
    '',
    `The same run judged every listed tool per host (\`--hosts all\`, each server under its name in \`` +
      `${census.file}\`, as the`,
    'hosts prefix it): how many of the servers and of their tools each host would refuse (blocked) or take changed',
    "(degraded). Not conformance: it changes no outcome above. Each rule quotes the host's own documentation " +
      'or code, with',
    'its address and the day it was read ([src/hosts/rules/](../src/hosts/rules/)); a limit no primary source ' +
      'states is',
    "not judged, and Cursor's documentation states none, so no tool is blocked or degraded on Cursor here.",
    '',
    `${judged.length} servers, ${listed} tools listed.`,
    '',
    '| Host | Servers blocked | Tools blocked | Servers degraded | Tools degraded |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...totals,
    '',
    ...(details.length > 0
      ? ['| Server | Host | Verdict | Tool | Rules |', '| --- | --- | --- | --- | --- |', ...details]
      : ['Every tool works on every host.']),
    '',
  ];
}

/**
 * @param {Record<string, string>} honesty a server's status on each annotation-honesty check, by short name
 * @param {{ id: string, tool: string | null }[]} warnings
 */
function honestyCell(honesty, warnings) {
  if (warnings.length > 0)
    return warnings
      .map((w) => `warn \`${w.id.replace('tools.annotations.', '')}\`${w.tool ? ` (${w.tool})` : ''}`)
      .join(', ');
  const judged = Object.entries(honesty)
    .filter(([, status]) => status !== 'skip')
    .map(([id]) => id.replace(/-honest$/, ''));
  return judged.length === 0 ? 'not judged (no hint it could test)' : `no warning (judged: ${judged.join(', ')})`;
}

/** @param {SandboxCensus['servers'][number]['changedFiles']} changedFiles */
function changedCell(changedFiles) {
  const tools = Object.entries(changedFiles);
  if (tools.length === 0) return 'none';
  return tools.map(([tool, e]) => `${tool} ${e.callsWithChanges}/${e.calls} (${e.kinds.join(', ')})`).join(', ');
}

/** @param {string[]} names */
const nameList = (names) =>
  names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * The census under --sandbox: the depth in safe mode and under --sandbox side by side, the findings under --sandbox
 * (those safe mode did not have marked new) and what the sandbox added, in numbers.
 * @param {Census & { sandbox?: SandboxCensus | { unavailable: string } }} census
 */
function sandboxSection(census) {
  const intro = [
    '## Under --sandbox',
    '',
    'The same fleet again with `--sandbox`: every stdio server runs in a throwaway sandbox (bubblewrap, copy-on-write',
    'overlays of the paths it is pointed at, a fresh HOME and TMPDIR, no network: [usage.md](usage.md#the-sandbox)),',
    'where every listed tool may be called, each call alone, and what each call changed on disk is recorded.',
    '`npm run census` runs it where the sandbox is available (Linux, bubblewrap, unprivileged user namespaces).',
    'server-memory is pointed at `test/fixtures/census/memory.jsonl` by `${workspaceFolder}`: it reads a relative',
    '`MEMORY_FILE_PATH` from its own package folder, where that folder does not exist and every write would fail.',
    '',
  ];
  const sandbox = census.sandbox;
  if (sandbox === undefined || 'unavailable' in sandbox) {
    return [
      ...intro,
      `Not run where the census was last written: ${sandbox?.unavailable ?? 'the census predates it'}.`,
      '',
    ];
  }
  const safeOf = new Map(census.servers.map((s) => [s.name, s]));
  const rows = sandbox.servers.map((s) => {
    const safe = safeOf.get(s.name);
    const depth = `${depthCell(s.depth)}${s.sandboxed ? '' : ' (not sandboxed)'}`;
    return (
      `| ${s.name} | ${depthCell(safe?.depth ?? null)} | ${depth} | ${OUTCOME_WORDS[s.outcome] ?? s.outcome} | ` +
      `${s.revision ? s.fails.length : '-'} | ${s.revision ? s.warns.length : '-'} | ` +
      `${honestyCell(s.honesty, s.honestyWarnings)} | ${changedCell(s.changedFiles)} |`
    );
  });
  const findings = sandbox.servers
    .filter((s) => s.fails.length + s.warns.length + s.errors.length > 0)
    .map((s) => {
      const safe = safeOf.get(s.name);
      const mark = (/** @type {string[]} */ ids, /** @type {string[]} */ before) =>
        ids.map((id) => `\`${id}\`${before.includes(id) ? '' : ' (new)'}`).join(', ');
      const parts = [
        s.fails.length > 0 ? `fails ${mark(s.fails, safe?.fails ?? [])}` : '',
        s.warns.length > 0 ? `warns ${mark(s.warns, safe?.warns ?? [])}` : '',
        s.errors.length > 0 ? `errors ${mark(s.errors, safe?.errors ?? [])}` : '',
      ];
      return `- **${s.name}**: ${parts.filter(Boolean).join('; ')}`;
    });
  return [
    ...intro,
    `It runs \`mcp-tools-conformance fleet ${census.file} ${sandbox.flags}\`. The depth in safe mode and under ` +
      `--sandbox:`,
    'tools called of those listed (and checks skipped for want of a callable tool). The outcome, fails and ' +
      'warnings are',
    'those under --sandbox. Annotation honesty: what the server got on `tools.annotations.read-only-honest`,',
    '`destructive-honest` and `idempotent-honest`, each judged only where a tool carries its hint. Tools that changed',
    'files: the calls that changed something of all calls of the tool, and the kinds of change.',
    '',
    'Where the sandbox is available, [test/census.test.ts](../test/census.test.ts) runs a cheaper copy of this ' +
      'run (the',
    "tools area's checks only, 10 property cases, `--timeout 5000`) and fails unless every stdio server has " +
      'every listed',
    'tool called, no annotation-honesty warning appears that census.json does not record, the servers recorded as',
    "changing files change files again, and nothing outside the sandbox changed: the census's folder, each server's",
    "package folder, HOME and the project's sources are the same afterwards.",
    '',
    '| Server | Depth, safe | Depth, --sandbox | Outcome | Fails | Warns | Annotation honesty | Tools that ' +
      'changed files |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    '### Findings under --sandbox',
    '',
    ...(findings.length > 0 ? findings : ['None.']),
    '',
    '### What the sandbox added',
    '',
    ...sandboxAdded(census, sandbox),
    '',
  ];
}

/**
 * What the sandbox added, in the numbers of this census: depth, findings gained or lost, annotation
 * honesty, and where the files changed.
 * @param {Census} census
 * @param {SandboxCensus} sandbox
 */
function sandboxAdded(census, sandbox) {
  const safeOf = new Map(census.servers.map((s) => [s.name, s]));
  const sandboxed = sandbox.servers.filter((s) => s.sandboxed && s.depth);
  const sum = (/** @type {number[]} */ ns) => ns.reduce((a, b) => a + b, 0);
  const whole = (/** @type {typeof census.servers} */ servers) =>
    servers.filter((s) => s.depth && s.depth.toolsCalled === s.depth.toolsListed).length;
  const safeSame = sandboxed.map((s) => safeOf.get(s.name)).filter((s) => s !== undefined);
  const deeper = sandboxed
    .filter((s) => (s.depth?.toolsCalled ?? 0) > (safeOf.get(s.name)?.depth?.toolsCalled ?? 0))
    .map((s) => s.name);
  const gained = [];
  const lost = [];
  for (const s of sandbox.servers) {
    const safe = safeOf.get(s.name);
    const before = [...(safe?.fails ?? []), ...(safe?.warns ?? []), ...(safe?.errors ?? [])];
    const after = [...s.fails, ...s.warns, ...s.errors];
    gained.push(...after.filter((id) => !before.includes(id)).map((id) => `\`${id}\` on ${s.name}`));
    lost.push(...before.filter((id) => !after.includes(id)).map((id) => `\`${id}\` on ${s.name}`));
  }
  const honesty = sandbox.servers.flatMap((s) =>
    s.honestyWarnings.map((w) => `\`${w.id}\` on ${s.name}${w.tool ? ` (${w.tool})` : ''}`),
  );
  const judgedHonesty = sandbox.servers.filter((s) =>
    Object.values(s.honesty).some((status) => status !== 'skip'),
  ).length;
  const changers = sandbox.servers.filter((s) => Object.keys(s.changedFiles).length > 0);
  const where = changers.map((s) => {
    const folders = unique(Object.values(s.changedFiles).flatMap((e) => e.folders)).sort();
    const shown = folders
      .slice(0, 3)
      .map((f) => `\`${f}\``)
      .join(', ');
    return (
      `${s.name} (${Object.keys(s.changedFiles).length} of ${s.depth?.toolsListed ?? '?'} tools, in ${shown}` +
      `${folders.length > 3 ? ` and ${folders.length - 3} more folders` : ''})`
    );
  });
  const notSandboxed = sandbox.servers.filter((s) => !s.sandboxed).map((s) => s.name);
  return [
    `- **Depth.** ${whole(sandboxed)} of ${sandboxed.length} sandboxed servers had every listed tool called, ` +
      `against ${whole(safeSame)} in safe mode: ` +
      `${sum(sandboxed.map((s) => s.depth?.toolsCalled ?? 0))} tools called of ` +
      `${sum(sandboxed.map((s) => s.depth?.toolsListed ?? 0))} listed, against ` +
      `${sum(safeSame.map((s) => s.depth?.toolsCalled ?? 0))} ` +
      `(deeper on ${deeper.length > 0 ? nameList(deeper) : 'none'}).` +
      `${notSandboxed.length > 0 ? ` Not sandboxed (reached by URL): ${nameList(notSandboxed)}.` : ''}`,
    `- **Findings.** ${gained.length > 0 ? `New under --sandbox: ${gained.join(', ')}.` : 'None new.'}` +
      `${lost.length > 0 ? ` Gone: ${lost.join(', ')}.` : ''}`,
    `- **Annotation honesty.** ${honesty.length > 0 ? `Warnings: ${honesty.join(', ')}.` : 'No warning.'} At ` +
      `least one of the three checks judged (not skipped) on ${judgedHonesty} of ${sandbox.servers.length} ` +
      `servers.`,
    `- **Files changed.** ${changers.length > 0 ? `${where.join('; ')}.` : 'None.'} Every change landed in an ` +
      `overlay, deleted after the audit.`,
  ];
}

/**
 * Runs the census fleet with `extra` flags and returns its fleet.json.
 * @param {string[]} extra
 */
function runFleet(extra) {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-census-'));
  try {
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'dist/cli/mcp-tools-conformance.js'), ...censusArgs(dir, extra)],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    // 0: every server conformant or warning; 1: a server failing. Anything else is not a census.
    if (run.status !== 0 && run.status !== 1)
      throw new Error(
        `the census fleet${extra.length > 0 ? ` with ${extra.join(' ')}` : ''} exited ${run.status}: ${run.stderr}`,
      );
    return JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const packages = censusPackages();
  const census = censusOf(runFleet([]), packages);
  /** @type {{ sandboxUnavailable: () => Promise<string | undefined> }} */
  const { sandboxUnavailable } = await import(pathToFileURL(join(ROOT, 'dist/src/sandbox/index.js')).href);
  const unavailable = await sandboxUnavailable();
  if (unavailable !== undefined) process.stderr.write(`the census under --sandbox is not run: ${unavailable}\n`);
  const sandbox = unavailable === undefined ? sandboxCensusOf(runFleet(SANDBOX_FLAGS), packages) : { unavailable };
  const both = { ...census, sandbox };
  writeFileSync(join(ROOT, CENSUS_JSON), `${JSON.stringify(both, null, 2)}\n`);
  writeFileSync(join(ROOT, CENSUS_MD), censusMarkdown(both));
  const line = (/** @type {Census['servers']} */ servers) =>
    servers
      .map((s) => `${s.name} ${s.outcome}${s.depth ? ` ${s.depth.toolsCalled}/${s.depth.toolsListed}` : ''}`)
      .join(', ');
  process.stdout.write(
    `wrote ${CENSUS_JSON} and ${CENSUS_MD}: ${line(census.servers)}` +
      `${'servers' in sandbox ? `; under --sandbox: ${line(sandbox.servers)}` : ''}\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
