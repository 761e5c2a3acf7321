import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { sharedPath } from '../../test/helpers/shared.js';
import { RUN_REPORT } from './run-report.fixture.js';
import { createSarifReporter, DEFAULT_SARIF_ARTIFACT, renderSarif } from './sarif.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read at any depth by tests
type Json = Record<string, any>;
const SCHEMA = sharedPath('formats/sarif-schema-2.1.0.json');
const haveSchema = existsSync(SCHEMA);
if (!haveSchema) console.warn(`SARIF schema test skipped: ${SCHEMA} is absent (it lives in the team's shared folder)`);

describe('SARIF 2.1.0 reporter', () => {
  const sarif = renderSarif(RUN_REPORT) as Json;
  const run = sarif.runs[0];

  it.skipIf(!haveSchema)('validates against the official SARIF 2.1.0 schema', () => {
    const ajv = new Ajv04.default({ allErrors: true, strict: false, validateFormats: false });
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')));
    expect(validate(sarif), ajv.errorsText(validate.errors)).toBe(true);
    const broken = structuredClone(sarif);
    broken.runs[0].results[0].level = 'fatal';
    expect(validate(broken)).toBe(false);
  });

  it('has one rule per check, with the keyword as level and the spec link', () => {
    const ids = [...new Set(RUN_REPORT.checks.map((c) => c.id))];
    expect(run.tool.driver.rules.map((r: Json) => r.id)).toEqual(ids);
    for (const rule of run.tool.driver.rules) {
      const check = RUN_REPORT.checks.find((c) => c.id === rule.id)!;
      expect(rule.helpUri).toBe(`https://modelcontextprotocol.io/specification/2026-07-28/${check.specRef}`);
      expect(rule.defaultConfiguration.level).toBe({ MUST: 'error', SHOULD: 'warning', MAY: 'note' }[check.keyword]);
      expect(rule.help.text).toContain(check.id);
    }
  });

  it('has one result per fail or warn, each with a location code scanning accepts and a stable fingerprint', () => {
    const findings = RUN_REPORT.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
    expect(findings.length).toBeGreaterThan(0);
    expect(run.results).toHaveLength(findings.length);
    for (const [i, result] of run.results.entries()) {
      expect(result.ruleId).toBe(findings[i]!.id);
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
      expect(result.level).toBe(findings[i]!.status === 'fail' ? 'error' : 'warning');
      expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe(DEFAULT_SARIF_ARTIFACT);
      expect(result.message.text).toContain(findings[i]!.message.slice(0, 20));
      expect(result.partialFingerprints['mcpToolsConformance/v1']).toMatch(/^[0-9a-f]{32}$/);
      expect(Array.isArray(result.properties.evidence)).toBe(true);
    }
    expect((renderSarif(RUN_REPORT) as Json).runs[0].results.map((r: Json) => r.partialFingerprints)).toEqual(
      run.results.map((r: Json) => r.partialFingerprints),
    );
  });

  it('keeps errors of our own out of the results, as execution notifications', () => {
    const errors = RUN_REPORT.checks.filter((c) => c.status === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(
      run.results.some((r: Json) => errors.some((e) => e.id === r.ruleId && r.properties.status === 'error')),
    ).toBe(false);
    expect(run.invocations[0].executionSuccessful).toBe(false);
    expect(run.invocations[0].toolExecutionNotifications.map((n: Json) => n.descriptor?.id)).toEqual(
      expect.arrayContaining(errors.map((e) => e.id)),
    );
  });

  it('files findings under the artifact it is given, and writes report.sarif', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sarif-'));
    const path = await createSarifReporter({ artifact: 'dist/server.js' }).finish(RUN_REPORT, dir);
    expect(path).toBe(join(dir, 'report.sarif'));
    const written = JSON.parse(readFileSync(path!, 'utf8')) as Json;
    expect(written.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('dist/server.js');
  });
});
