import { describe, expect, it } from 'vitest';
import { BUILT, explain, referenceCommand, runCli } from './helpers/cli.js';

describe.skipIf(!BUILT)('tools.list.no-connection-variance.after-calls names the side a tool is on', () => {
  it('the tool the calling connection gained is reported as only on the calling connection', async () => {
    // tools-change-after-call: a connection that has called a tool lists recent_calls; a call-free one does not.
    const run = await runCli(['--stdio', referenceCommand('--defect', 'tools-change-after-call'), '--runs', '10']);
    const hit = run.report!.checks.find(
      (c) => c.id === 'tools.list.no-connection-variance.after-calls' && c.status === 'fail',
    );
    expect(hit, explain(run.report)).toBeDefined();
    expect(hit!.message).toContain('(only on the calling connection: recent_calls)');
    expect(hit!.message).not.toContain('call-free connection: recent_calls');
  });
});
