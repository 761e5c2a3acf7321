import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderConformance } from '../src/catalog/conformance-md.js';
import { COVERAGE_NOTES, type CatalogRow } from '../src/catalog/coverage-notes.js';
import { CLIENT_DEFECT_REFS, SERVER_DEFECT_REFS as DEFECTS } from '../reference/defect-tables.js';
import { clientSide } from '../src/catalog/client-side.js';
import { acrossRevisions, sentenceCells } from '../src/catalog/sentence-columns.js';
import { REVISIONS } from '../src/core/revision.js';
import { ALL_CHECKS } from '../suites/index.js';
import { ROOT } from './helpers/cli.js';

const CLIENT_SIDE = clientSide(CLIENT_DEFECT_REFS);

/**
 * Checks for rules that come from the schema (ST/schema.json, requirements §1.15) or JSON Schema itself rather than a
 * catalog row (schema.result.valid also covers mrtr.irr.value-types).
 */
const REFINED_FROM_SCHEMA = [
  'discover.supported-versions',
  'icons.shape',
  'jsonschema.pattern.ecma',
  'jsonschema.ref.resolves',
  'tools.annotations.destructive-honest',
  'tools.annotations.idempotent-honest',
  'tools.annotations.read-only-honest',
  'tools.annotations.types',
  'tools.cap.list-changed-type',
  'tools.tool.description',
  'tools.tool.shape',
];

/** Checks of rules only older revisions have, which the catalog (of 2026-07-28) therefore has no row for. */
const OLDER_REVISIONS_ONLY = [
  'base.batch.receive',
  'base.req.id-never-reused',
  'http.ended-session-404',
  'http.get-stream',
  'http.session.id-visible-ascii',
  'lifecycle.version-negotiation',
];

/**
 * Checks of a page the catalog takes only in part (logging: only its per-request logLevel rules, requirements.md § L).
 */
const PAGES_TAKEN_IN_PART = ['log.capability-declared'];

const catalog = (
  JSON.parse(readFileSync(join(ROOT, 'data/requirements-catalog.json'), 'utf8')) as { rows: CatalogRow[] }
).rows;

describe('CONFORMANCE.md', () => {
  it('is in sync with the check registry (run `npm run conformance-md`)', () => {
    expect(readFileSync(join(ROOT, 'CONFORMANCE.md'), 'utf8')).toBe(
      renderConformance(ALL_CHECKS, DEFECTS, catalog, CLIENT_SIDE),
    );
  });

  it('lists every client check with the reference-client defect that proves it, and every client row with its coverage', () => {
    const text = renderConformance(ALL_CHECKS, DEFECTS, catalog, CLIENT_SIDE);
    const clientPart = text.slice(text.indexOf('## Client mode'));
    for (const check of CLIENT_SIDE.checks)
      expect(clientPart).toMatch(
        new RegExp(`\\| \`${check.id.replace(/\./g, '\\.')}\` \\| ${check.keyword} \\| .*\\| \`[a-z0-9-]+\``),
      );
    for (const row of catalog.filter((r) => r.role === 'client'))
      expect(clientPart).toContain(`| \`${row.id}\` | ${row.keyword} |`);
  });

  it('has one sentence column per revision, and marks the rows whose sentences differ across revisions', () => {
    const text = renderConformance(ALL_CHECKS, DEFECTS, catalog, CLIENT_SIDE);
    expect(text).toContain(
      `| Requirement | Keyword | Check | Needs | Across revisions | ${REVISIONS.join(' | ')} | Proven by defect |`,
    );
    const must = { ref: 'server/tools#tool-names', text: 'Tool names MUST be unique', keyword: 'MUST' } as const;
    const should = { ...must, text: 'Tool names SHOULD be unique', keyword: 'SHOULD' } as const;
    const everywhere = { sentences: Object.fromEntries(REVISIONS.map((wire) => [wire, [must]])) };
    expect(acrossRevisions(everywhere)).toBe('');
    expect(sentenceCells(everywhere)).toEqual([
      `MUST, ` +
        `[server/tools#tool-names](https://modelcontextprotocol.io/specification/2026-07-28/server/tools#tool-names): ` +
        `“Tool names MUST be unique”`,
      ...REVISIONS.slice(1).map(() => 'same as 2026-07-28'),
    ]);
    const weakened = {
      sentences: { '2026-07-28': [should], '2025-11-25': [should], '2025-06-18': [must], '2025-03-26': [must] },
    };
    expect(acrossRevisions(weakened)).toBe(
      '≠ applies from 2025-03-26 on; SHOULD on 2026-07-28, 2025-11-25, MUST on 2025-06-18, 2025-03-26; ' +
        'sentences differ',
    );
    expect(sentenceCells(weakened).slice(1)).toEqual([
      'same as 2026-07-28',
      expect.stringContaining('/specification/2025-06-18/'),
      'same as 2025-06-18',
      '—',
    ]);
    expect(acrossRevisions({ sentences: { '2024-11-05': [must], '2025-03-26': [must] } })).toBe(
      '≠ applies up to 2025-03-26',
    );
    expect(acrossRevisions({ sentences: { '2025-11-25': [must], '2025-03-26': [must] } })).toBe(
      '≠ applies only on 2025-11-25, 2025-03-26',
    );
    expect(acrossRevisions({ sentences: { '2025-06-18': [must] } })).toBe('≠ applies only on 2025-06-18');
  });

  it('lists every check with the defect that proves it', () => {
    const text = renderConformance(ALL_CHECKS, DEFECTS, catalog, CLIENT_SIDE);
    for (const check of ALL_CHECKS) expect(text).toContain(`| \`${check.id}\` | ${check.keyword} |`);
    expect(text).not.toMatch(/\| — \|\n/);
  });

  it('lists every server-side catalog requirement, and every static one of the tool-definition sections is checked or explained', () => {
    const text = renderConformance(ALL_CHECKS, DEFECTS, catalog, CLIENT_SIDE);
    const serverSide = catalog.filter((r) => r.role === 'server' || r.role === 'both');
    for (const r of serverSide) expect(text).toContain(`| \`${r.id}\` | ${r.keyword} |`);
    const toolDefinitionSections = /^1\.(1|3|5|9) /;
    const covered = new Set(ALL_CHECKS.flatMap((c) => [c.id, ...(c.covers ?? [])]));
    const unexplained = serverSide.filter(
      (r) =>
        toolDefinitionSections.test(r.section) &&
        r.testability.startsWith('static') &&
        !covered.has(r.id) &&
        !(r.id in COVERAGE_NOTES) &&
        r.keyword !== 'MAY',
    );
    expect(unexplained.map((r) => r.id)).toEqual([]);
  });

  it('every check ID is a catalog ID or declares the catalog IDs it refines', () => {
    const ids = new Set(catalog.map((r) => r.id));
    const refinedWithoutBasis = ALL_CHECKS.filter(
      (c) => !ids.has(c.id) && !(c.covers ?? []).some((id) => ids.has(id)),
    ).map((c) => c.id);
    expect(refinedWithoutBasis.sort()).toEqual(
      [...REFINED_FROM_SCHEMA, ...OLDER_REVISIONS_ONLY, ...PAGES_TAKEN_IN_PART].sort(),
    );
  });
});
