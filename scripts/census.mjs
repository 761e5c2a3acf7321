#!/usr/bin/env node
// The census: the npm servers the tests install and two SDK fixture servers, audited as one fleet with the default
// (safe) flags, written to docs/census.json (the verdicts, as data) and docs/census.md (the fleet's table). Needs
// `npm run build`; starts every server from node_modules, so no network is used. test/census.test.ts runs the same
// fleet and compares its verdicts with docs/census.json: a change in any verdict shows in review.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '..');
/** The census's host file; its paths are relative to the repository root, where the fleet runs. */
export const CENSUS_FILE = 'test/fixtures/census/mcp.json';
export const CENSUS_JSON = 'docs/census.json';
export const CENSUS_MD = 'docs/census.md';
/** Every server's budget: generous for a loaded 2-core machine (the whole census takes about 15 s there). */
export const CENSUS_FLAGS = ['--jobs', '2', '--max-duration', '120000'];

/**
 * The census's arguments of our CLI, writing fleet.json into `outputDir`.
 * @param {string} outputDir
 */
export function censusArgs(outputDir) {
  return ['fleet', CENSUS_FILE, ...CENSUS_FLAGS, '--reporter', 'json', '--output-dir', outputDir];
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
        depth: s.depth ? { toolsCalled: s.depth.toolsCalled, toolsListed: s.depth.toolsListed, skippedForNoCallableTool: s.depth.skippedForNoCallableTool } : null,
      };
    }),
    findings: fleet.findings.map((f) => ({ id: f.id, servers: f.servers, tools: f.tools })),
  };
}

/** @typedef {ReturnType<typeof censusOf>} Census */

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

const OUTCOME_WORDS = { conformant: 'conformant', failing: 'failing', warnings: 'warnings', 'could-not-start': 'could not start', unreachable: 'unreachable', 'needs-secret': 'needs secret', 'timed-out': 'timed out', 'invalid-entry': 'invalid entry', skipped: 'skipped' };

/** @param {Census['servers'][number]['depth']} depth */
function depthCell(depth) {
  if (!depth) return '-';
  return `${depth.toolsCalled}/${depth.toolsListed}${depth.skippedForNoCallableTool > 0 ? `, ${depth.skippedForNoCallableTool} skipped` : ''}`;
}

/** @param {string[]} ids */
const idList = (ids) => (ids.length === 0 ? '' : ids.map((id) => `\`${id}\``).join(', '));

/**
 * docs/census.md: how to regenerate it, what the table shows, the table, each server's findings and the fleet's own.
 * @param {Census} census
 */
export function censusMarkdown(census) {
  const rows = census.servers.map((s) =>
    `| ${s.name} | ${s.package ? `\`${s.package}\`` : 'fixture'} | ${s.transport} | ${s.revision ?? '-'} | ${OUTCOME_WORDS[s.outcome] ?? s.outcome} | ${s.revision ? s.fails.length : '-'} | ${s.revision ? s.warns.length : '-'} | ${depthCell(s.depth)} |`,
  );
  const findings = census.servers
    .filter((s) => s.fails.length + s.warns.length + s.errors.length > 0)
    .map((s) => `- **${s.name}**: ${[s.fails.length > 0 ? `fails ${idList(s.fails)}` : '', s.warns.length > 0 ? `warns ${idList(s.warns)}` : '', s.errors.length > 0 ? `errors ${idList(s.errors)}` : ''].filter(Boolean).join('; ')}`);
  const fleetFindings = census.findings.map((f) => `- \`${f.id}\`: ${f.tools.map((t) => `\`${t}\``).join(', ')} on ${f.servers.join(', ')}`);
  const totals = Object.entries(census.summary).map(([outcome, n]) => `${n} ${OUTCOME_WORDS[outcome] ?? outcome}`).join(', ');
  return [
    '# Census',
    '',
    '<!-- Generated by `npm run census` (scripts/census.mjs) from docs/census.json: do not edit by hand. -->',
    '',
    `The npm servers the tests install and two fixture servers built on the official TypeScript SDKs, audited as one`,
    `fleet (\`${census.file}\`) with the default, safe flags: only tools annotated \`readOnlyHint: true\` are called.`,
    `Every server is started from \`node_modules\` (or \`test/fixtures/\`): no network is used.`,
    '',
    '```sh',
    'npm run census   # builds, runs the fleet below, rewrites docs/census.json and docs/census.md',
    '```',
    '',
    `It runs \`mcp-tools-conformance fleet ${census.file} ${census.flags}\` from the repository root (each server's budget`,
    'is generous for a loaded 2-core machine; nothing is excluded, the property-based checks included).',
    '[test/census.test.ts](../test/census.test.ts) runs the same fleet and fails when any server\'s outcome, revision or',
    'failing or warning check IDs differ from [census.json](census.json): a change in a verdict shows in review, and the',
    'census is regenerated with it.',
    '',
    'The table is the one the fleet prints on the console, without the time column (it changes from run to run): each',
    'server, the package it comes from, its transport, the revision it agreed, its outcome, its fails and warnings',
    '(distinct checks), and its **depth**: the tools called of those listed (and the checks skipped for want of a tool',
    'it may call). A tool that is not marked read-only is not called unless allowed (`--allow-tools server:tool`).',
    '',
    `${census.servers.length} servers: ${totals}.`,
    '',
    '| Server | Package | Transport | Revision | Outcome | Fails | Warns | Depth |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
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
  ].join('\n');
}

function main() {
  const dir = mkdtempSync(join(tmpdir(), 'mtc-census-'));
  try {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist/cli/mcp-tools-conformance.js'), ...censusArgs(dir)], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    // 0: every server conformant or warning; 1: a server failing. Anything else is not a census.
    if (run.status !== 0 && run.status !== 1) throw new Error(`the census fleet exited ${run.status}: ${run.stderr}`);
    const census = censusOf(JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')), censusPackages());
    writeFileSync(join(ROOT, CENSUS_JSON), `${JSON.stringify(census, null, 2)}\n`);
    writeFileSync(join(ROOT, CENSUS_MD), censusMarkdown(census));
    process.stdout.write(`wrote ${CENSUS_JSON} and ${CENSUS_MD}: ${census.servers.map((s) => `${s.name} ${s.outcome}`).join(', ')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
