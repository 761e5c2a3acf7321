import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../src/client-mode/scenarios.js';
import { DEFECTS, type Defect } from '../reference/client/defects/index.js';
import { CLIENT_CHECKS } from '../suites/client/index.js';
import { BUILT, ROOT, runCli, runInProcess } from './helpers/cli.js';

const REFERENCE_CLIENT = join(ROOT, 'dist/reference/client/main.js');
const client = (...defects: string[]) =>
  [process.execPath, REFERENCE_CLIENT, ...revisionArgsOf(defects), ...defects.flatMap((d) => ['--defect', d])].join(
    ' ',
  );
/** A defect of the initialize mode runs the reference client on its revision (it opens with initialize). */
const revisionArgsOf = (defects: readonly string[]) =>
  defects.flatMap((d) =>
    (DEFECTS as Record<string, Defect>)[d]?.initializeRevision
      ? ['--protocol-version', (DEFECTS as Record<string, Defect>)[d]!.initializeRevision!]
      : [],
  );
const INITIALIZE_CLIENT = [process.execPath, REFERENCE_CLIENT, '--protocol-version', '2025-11-25'].join(' ');
const findings = (checks: readonly { id: string; status: string }[]) =>
  checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}: ${c.status}`);

describe.skipIf(!BUILT)('the reference client', () => {
  it.each(['http', 'stdio'] as const)('clean, over %s: exit 0, no fail and no warning', async (transport) => {
    const run = await runCli(['client', '--transport', transport, '--command', client()]);
    expect(findings(run.report!.checks)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report!.client).toMatchObject({
      name: 'mcp-tools-conformance-reference-client',
      exit: { kind: 'exited', code: 0 },
    });
  });

  it.each(['http', 'stdio'] as const)(
    'clean, in its legacy mode (initialize, 2025-11-25) over %s: judged on 2025-11-25, exit 0, no fail and no warning',
    async (transport) => {
      const run = await runCli(['client', '--transport', transport, '--command', INITIALIZE_CLIENT]);
      expect(run.report!.wire.protocolVersion).toBe('2025-11-25');
      expect(findings(run.report!.checks)).toEqual([]);
      expect(run.code).toBe(0);
      // Its rules ran: the handshake, and (over HTTP) a new session after the scripted server ended the first.
      const passed = run.report!.checks.filter((c) => c.status === 'pass').map((c) => c.id);
      expect(passed).toEqual(
        expect.arrayContaining([
          'lifecycle.client.initialize-first',
          'lifecycle.client.initialized',
          'base.response.same-id',
          'progress.token-unique',
          ...(transport === 'http'
            ? ['http.session.echo', 'http.session.new-after-404', 'http.pv.after-initialize']
            : []),
        ]),
      );
    },
  );

  it('every client check has a defect, and every defect names a client check', () => {
    const named = new Set(
      Object.values(DEFECTS as Record<string, Defect>).flatMap((d) =>
        typeof d.check === 'string' ? [d.check] : Object.values(d.check),
      ),
    );
    expect(CLIENT_CHECKS.map((c) => c.id).filter((id) => !named.has(id))).toEqual([]);
    expect([...named].filter((id) => !CLIENT_CHECKS.some((c) => c.id === id))).toEqual([]);
  });
});

describe.skipIf(!BUILT)('each client check catches its reference-client defect alone', () => {
  // One transport per check: the one its rule binds, else the defect's own, else HTTP (the checks read both the same
  // way).
  const transportOf = (checkId: string, defect: Defect) =>
    CLIENT_CHECKS.find((c) => c.id === checkId)?.transport ?? defect.only ?? 'http';
  const cases = Object.entries(DEFECTS as Record<string, Defect>).flatMap(([name, defect]) =>
    typeof defect.check === 'string'
      ? [[name, transportOf(defect.check, defect), defect.check] as const]
      : (['http', 'stdio'] as const).map((t) => [name, t, (defect.check as Record<string, string>)[t]!] as const),
  );
  it.concurrent.each(cases)('%s (%s)', async (name, transport, checkId) => {
    const check = CLIENT_CHECKS.find((c) => c.id === checkId)!;
    // slow_answer costs every run the call timeout: only the runs whose check needs it get the timeout scenario.
    const scenarios = check.scenario === 'timeout' ? SCENARIOS : SCENARIOS.filter((s) => s !== 'timeout');
    const run = await runInProcess([
      'client',
      '--transport',
      transport,
      '--command',
      client(name),
      '--scenario',
      scenarios.join(','),
    ]);
    const expected =
      `${check.id}: ` + `${check.keyword.startsWith('MUST') || check.keyword === 'REQUIRED' ? 'fail' : 'warn'}`;
    expect(findings(run.report!.checks)).toEqual([expected]);
    expect(run.code).toBe(expected.endsWith('fail') ? 1 : 0);
  });
});
