import type { CheckResult } from '../model/check.js';
import { CHECKS, HOSTILE_TEXT, LIST_EXCHANGE, RUN_REPORT } from './run-report.fixture.js';
import type { RunReport } from '../model/report.js';

/** Test data: markup that would run script if it reached the page unescaped. */
export const INJECTION = '</script><img src=x onerror=alert(1)>';

/** A run in which the target put markup, script and terminal escapes everywhere it can reach. */
export function hostileReport(): RunReport {
  const checks: CheckResult[] = CHECKS.map((check) =>
    check.status === 'fail'
      ? {
          ...check,
          tool: `${INJECTION}${HOSTILE_TEXT}`,
          message: `bad tool ${INJECTION} said ${HOSTILE_TEXT}`,
          expected: `<b>${INJECTION}</b>`,
          replay: `replay ${INJECTION}`,
          evidence: [
            {
              ...LIST_EXCHANGE,
              response: { jsonrpc: '2.0', id: 3, result: { tools: [{ name: INJECTION, description: HOSTILE_TEXT }] } },
              rawBody: INJECTION,
            },
            { note: INJECTION, data: { [INJECTION]: `<script>alert(2)</script>` } },
          ],
        }
      : check,
  );
  return {
    ...RUN_REPORT,
    server: { name: `${INJECTION}${HOSTILE_TEXT}`, version: `"><svg onload=alert(3)>` },
    stats: { requests: 12, toolsCalled: { [INJECTION]: 1, echo: 2 } },
    aborted: { reason: `target said ${INJECTION}`, duringCheck: 'tools.call.progress' },
    checks,
  };
}
