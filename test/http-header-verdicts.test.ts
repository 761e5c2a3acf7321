import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT, ROOT, explain, runCli, startHttpServer, startReferenceHttp, type HttpServer } from './helpers/cli.js';

/**
 * Conforming servers that the HTTP header checks once misjudged (issue 17, items 7, 9 and 10). Each audit is narrowed
 * to the checks concerned; the defects that these checks must still catch are in test/defects.test.ts.
 */
async function audit(server: Promise<HttpServer>, checks: string) {
  const running = await server;
  try {
    const run = await runCli(['--url', running.url, '--checks', checks], { timeoutMs: 45_000 });
    const byId = new Map(run.report!.checks.map((c) => [c.id, c]));
    return { run, check: (id: string) => byId.get(id)!, text: explain(run.report) };
  } finally {
    await running.stop();
  }
}

describe.skipIf(!BUILT)(
  'the compatibility SHOULDs apply only to a server that supports only 2026-07-28 (item 7)',
  () => {
    it(
      'the SDK v2 fixture, which also accepts an initialize for 2025-11-25, is skipped with that reason',
      { timeout: 60_000 },
      async () => {
        const { run, check, text } = await audit(
          startHttpServer(join(ROOT, 'test/fixtures/sdk-v2-http-server.mjs')),
          'http.compat.*',
        );
        for (const id of ['http.compat.get-delete-405', 'http.compat.ignore-session']) {
          expect(check(id).status, text).toBe('skip');
          expect(check(id).message).toMatch(
            /initialize with protocolVersion 2025-11-25 got an InitializeResult for 2025-11-25.*supports only this revision/,
          );
        }
        expect(run.code).toBe(0);
      },
    );
  },
);

describe.skipIf(!BUILT)('param-header verdicts rest on -32020 and on values the inputSchema accepts (item 9)', () => {
  it(
    'a tool whose own validation refuses the sample region with 400/-32602 is not failed: the checks skip and say why',
    { timeout: 60_000 },
    async () => {
      const { check, text } = await audit(
        startReferenceHttp('--defect', 'region-refused'),
        'xmcp.server.*,enc.server.*',
      );
      // Judged by "any HTTP 400", this answer was a fail of xmcp.server.validate-present.
      expect(check('xmcp.server.validate-present'), text).toMatchObject({ status: 'skip' });
      expect(check('xmcp.server.validate-present').message).toMatch(
        /tool's own validation refused the sample arguments, which its inputSchema accepts \(HTTP 400 with error -32602\)/,
      );
      for (const id of ['xmcp.server.reject-missing', 'xmcp.server.validate', 'enc.server.decode']) {
        expect(check(id).status, `${id}\n${text}`).toBe('skip');
        expect(check(id).message).toMatch(/correct headers was not served \(HTTP 400 with error -32602\)/);
      }
    },
  );

  it(
    'a region constrained by a pattern that "us-west1" does not fit is probed with a sampled value and judged',
    { timeout: 60_000 },
    async () => {
      const { check, text } = await audit(
        startReferenceHttp('--defect', 'region-pattern'),
        'xmcp.server.*,enc.server.*',
      );
      for (const id of ['xmcp.server.validate-present', 'xmcp.server.reject-missing', 'xmcp.server.validate']) {
        expect(check(id).status, `${id}\n${text}`).toBe('pass');
      }
      expect(check('enc.server.decode')).toMatchObject({
        status: 'skip',
        message: "the annotated parameter's schema accepts no value that needs the Base64 form",
      });
    },
  );
});

describe.skipIf(!BUILT)(
  'standard-header verdicts do not depend on whether the tool is looked up first (item 10)',
  () => {
    it(
      'a server that answers an unknown tool with -32602 before validating headers passes, probed with a ' +
        'listed read-only tool',
      { timeout: 60_000 },
      async () => {
        const { check, text } = await audit(
          startReferenceHttp('--defect', 'tool-lookup-before-headers'),
          'http.validate.*',
        );
        for (const id of ['http.validate.missing-std', 'http.validate.mismatch']) {
          expect(check(id).status, `${id}\n${text}`).toBe('pass');
          expect(check(id).message).toMatch(
            /tools\/call of the listed tool get_weather .*: HTTP 400 with error -32020/,
          );
        }
      },
    );

    it(
      'with no tool the policy lets us call, the unlisted-name probe is kept, and a -32602 to it is not judged',
      { timeout: 60_000 },
      async () => {
        const { check, text } = await audit(
          startReferenceHttp('--defect', 'tool-lookup-before-headers', '--defect', 'no-read-only-hints'),
          'http.validate.*',
        );
        for (const id of ['http.validate.missing-std', 'http.validate.mismatch']) {
          expect(check(id).status, `${id}\n${text}`).toBe('pass');
          // This -32602 is the answer the unknown-name probe used to fail.
          expect(check(id).message).toMatch(
            /unlisted name mtc_no_such_tool_5f3a9c \(no listed tool that may be called .*HTTP 200 with error -32602, not judged/,
          );
        }
      },
    );
  },
);

describe.skipIf(!BUILT)(
  'the MCP-Protocol-Version MUSTs and a server that also takes earlier clients (as the Python SDK 2.3 routes them)',
  () => {
    const FIXTURE = join(ROOT, 'test/fixtures/dual-era-http-server.mjs');
    const CHECKS = 'http.pv.missing-reject,http.pv.mismatch';

    it(
      'a request without the header, or naming 2025-11-25, refused by the earlier session rules: not judged, ' +
        'and the skip says why',
      { timeout: 60_000 },
      async () => {
        const { run, check, text } = await audit(startHttpServer(FIXTURE), CHECKS);
        expect(check('http.pv.missing-reject').status, text).toBe('skip');
        expect(check('http.pv.missing-reject').message).toMatch(
          /HTTP 400 with error -32600, not judged: the server supports 2025-03-26 clients .*MAY treat a request that omits the header as protocol version 2025-03-26"$/,
        );
        expect(check('http.pv.mismatch').status).toBe('skip');
        expect(check('http.pv.mismatch').message).toMatch(
          /not judged: the server also speaks 2025-11-25 .*2025-11-25 has no HeaderMismatch$/,
        );
        expect(run.code).toBe(0);
      },
    );

    it(
      'the same answers from a server of 2026-07-28 alone (it refuses initialize) fail both',
      { timeout: 60_000 },
      async () => {
        const { run, check, text } = await audit(startHttpServer(FIXTURE, '--modern-only'), CHECKS);
        expect([check('http.pv.missing-reject').status, check('http.pv.mismatch').status], text).toEqual([
          'fail',
          'fail',
        ]);
        expect(run.code).toBe(1);
      },
    );
  },
);
