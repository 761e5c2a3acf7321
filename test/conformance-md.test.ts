import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderConformance } from '../src/docs/conformance-md.js';
import { DEFECTS } from '../src/reference-server/defects.js';
import { ALL_CHECKS } from '../suites/index.js';
import { ROOT } from './helpers/cli.js';

describe('CONFORMANCE.md', () => {
  it('is in sync with the check registry (run `npm run conformance-md`)', () => {
    expect(readFileSync(join(ROOT, 'CONFORMANCE.md'), 'utf8')).toBe(renderConformance(ALL_CHECKS, DEFECTS));
  });

  it('lists every check with the defect that proves it', () => {
    const text = renderConformance(ALL_CHECKS, DEFECTS);
    for (const check of ALL_CHECKS) expect(text).toContain(`| \`${check.id}\` | ${check.keyword} |`);
    expect(text).not.toMatch(/\| — \|\n/);
  });
});
