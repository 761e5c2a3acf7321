import { describe, expect, it } from 'vitest';
import { BUILT, explain, referenceCommand, runCli } from './helpers/cli.js';

describe.skipIf(!BUILT)('a tool list whose cursors lead round in a loop', () => {
  it('with a fresh cursor on every page: the walk stops at the repeated page, and the audit stays bounded', async () => {
    const run = await runCli(['--stdio', referenceCommand('--defect', 'cursor-loop-fresh')]);
    const report = run.report!;
    const walk = report.checks.find((c) => c.id === 'page.walk.terminates')!;
    expect(walk.status, explain(report)).toBe('warn');
    expect(walk.message).toMatch(/page 4 .* lists exactly the tools of page 2/);
    // Without the repeat detection the walk ran to its 5,000-page cap and every page's tools were searched again.
    expect(report.stats.requests).toBeLessThan(2_000);
    expect(report.checks.filter((c) => c.id === 'tools.name.unique').map((c) => c.status)).toEqual(['pass']);
    expect(Math.max(...Object.values(report.stats.toolsCalled))).toBeLessThan(200);
  });

  it('a tool listed twice is searched once', async () => {
    const run = await runCli([
      '--stdio',
      referenceCommand('--defect', 'duplicate-tool'),
      '--checks',
      'tools.err.tool-errors-in-result.property',
    ]);
    const once = await runCli(['--stdio', referenceCommand(), '--checks', 'tools.err.tool-errors-in-result.property']);
    // The same cases over the same 8 tools, not a ninth search of get_weather.
    expect(run.report!.checks.map((c) => c.message)).toEqual(once.report!.checks.map((c) => c.message));
    expect(run.report!.checks[0]!.message).toMatch(/over 8 tool\(s\)/);
  });
});
