import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../suites/index.js';
import { DEFECTS } from '../reference/server/defects/index.js';
import { sandboxUnavailable } from '../src/sandbox/index.js';
import { governingSentence, keywordClass } from '../src/model/check.js';
import { INITIALIZE_REVISIONS, LATEST_REVISION, type Revision } from '../src/core/revision.js';
import { BUILT, explain, referenceCommand, runInProcess, startReferenceHttp } from './helpers/cli.js';

const findings = DEFECTS.filter((d) => !d.chaos && d.breaks !== null);
const NO_SANDBOX = await sandboxUnavailable();

/**
 * Defects of the property-based checks are searched with the default --runs (they must be found within them); the
 * others keep the property checks running, with fewer cases, so that ~160 audits stay affordable on a loaded machine.
 */
const runsFor = (defect: (typeof findings)[number]): string[] =>
  defect.breaks!.endsWith('.property') ? [] : ['--runs', '10'];

describe('every check proves it can fail', () => {
  it('each registered check is broken by at least one reference-server defect', () => {
    const proven = new Set(findings.map((d) => d.breaks));
    expect(ALL_CHECKS.map((c) => c.id).filter((id) => !proven.has(id))).toEqual([]);
  });

  it('every defect runs on a transport, and both transports prove defects', () => {
    expect(findings.filter((d) => transportsOf(d).length === 0).map((d) => d.name)).toEqual([]);
    expect(findings.filter((d) => provenOn(d) === 'stdio').length).toBeGreaterThan(40);
    expect(findings.filter((d) => provenOn(d) === 'http').length).toBeGreaterThan(40);
  });

  it('each initialize revision has a defect of its own', () => {
    expect(INITIALIZE_REVISIONS.filter((revision) => !findings.some((d) => d.revision === revision))).toEqual([]);
  });

  it('each defect names a registered check', () => {
    const ids = new Set(ALL_CHECKS.map((c) => c.id));
    expect(findings.filter((d) => !ids.has(d.breaks!)).map((d) => d.name)).toEqual([]);
  });
});

/** The revision a defect is audited on: its own, else 2026-07-28. */
const revisionOf = (defect: (typeof findings)[number]): Revision => defect.revision ?? LATEST_REVISION;

/** The reference server's flags for a defect: the revision it needs, and the defect. */
const serverArgs = (defect: (typeof findings)[number]): string[] => [
  ...(defect.revision ? ['--protocol-version', defect.revision] : []),
  '--defect',
  defect.name,
];

/** Whether the check's verdict on the defect's revision fails or warns: the keyword of its governing sentence there. */
function mustOn(defect: (typeof findings)[number]): boolean {
  const check = ALL_CHECKS.find((c) => c.id === defect.breaks)!;
  return keywordClass(governingSentence(check, revisionOf(defect))?.keyword ?? check.keyword) === 'MUST';
}

function assertCaughtAlone(
  defect: (typeof findings)[number],
  report: NonNullable<Awaited<ReturnType<typeof runInProcess>>['report']>,
) {
  expect(report.wire.protocolVersion, `${defect.name} is audited on its revision`).toBe(revisionOf(defect));
  const expected = mustOn(defect) ? 'fail' : 'warn';
  const hits = report.checks.filter((c) => c.id === defect.breaks);
  expect(
    hits.map((h) => h.status),
    `${defect.name} should make ${defect.breaks} ${expected}\n${explain(report)}`,
  ).toContain(expected);
  const unrelated = report.checks.filter((c) => c.id !== defect.breaks && ['fail', 'warn', 'error'].includes(c.status));
  expect(
    unrelated.map((c) => `${c.status} ${c.id}: ${c.message}`),
    `${defect.name} must not trip other checks`,
  ).toEqual([]);
  for (const hit of hits.filter((h) => h.status === expected)) {
    expect(hit.message.length).toBeGreaterThan(10);
    expect(hit.expected, `${defect.breaks} says what was expected`).toBeTruthy();
    expect(hit.evidence.length, `${defect.breaks} quotes evidence`).toBeGreaterThan(0);
  }
}

const transportsOf = (defect: (typeof findings)[number]): readonly ('stdio' | 'http')[] =>
  defect.transports ?? ['stdio', 'http'];

/**
 * Each defect is proven once, on one transport it exists on: a defect of both goes to one by a hash of its name, so
 * both transports keep proving about half of them and adding a defect moves no other. The clean server is audited on
 * both (reference-clean.test.ts), so what one transport alone would trip shows there.
 */
function provenOn(defect: (typeof findings)[number]): 'stdio' | 'http' {
  const transports = transportsOf(defect);
  if (transports.length === 1) return transports[0]!;
  let hash = 0;
  for (const char of defect.name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return transports[hash % 2]!;
}

describe.skipIf(!BUILT)('each defect is caught by its check and nothing else (stdio)', () => {
  for (const defect of findings.filter((d) => provenOn(d) === 'stdio')) {
    // A defect judged from a sandbox's effects needs one: where this machine has none, it is skipped (and says why).
    const sandboxMissing = defect.auditArgs?.includes('--sandbox') ? NO_SANDBOX : undefined;
    it.skipIf(sandboxMissing !== undefined).concurrent(
      sandboxMissing ? `${defect.name} (skipped: ${sandboxMissing})` : `${defect.name} (${defect.breaks})`,
      async () => {
        const run = await runInProcess([
          '--stdio',
          referenceCommand(...serverArgs(defect)),
          ...(defect.auditArgs ?? []),
          ...runsFor(defect),
        ]);
        assertCaughtAlone(defect, run.report!);
        expect(run.code).toBe(mustOn(defect) ? 1 : 0);
      },
    );
  }
});

describe.skipIf(!BUILT)('each defect is caught by its check and nothing else (HTTP)', () => {
  for (const defect of findings.filter((d) => provenOn(d) === 'http')) {
    it.concurrent(`${defect.name} (${defect.breaks})`, async () => {
      const server = await startReferenceHttp(...serverArgs(defect));
      try {
        const run = await runInProcess(['--url', server.url, ...(defect.auditArgs ?? []), ...runsFor(defect)]);
        assertCaughtAlone(defect, run.report!);
      } finally {
        await server.stop();
      }
    });
  }
});
