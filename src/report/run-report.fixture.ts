import type { CheckResult } from '../model/check.js';
import type { Exchange } from '../model/exchange.js';
import type { RunReport } from '../model/report.js';
import { specUrl } from '../spec-links.js';

/**
 * Test data: what a hostile target could put into a message (terminal escapes, XML-forbidden characters, markup, emoji,
 * bidi).
 */
export const HOSTILE_TEXT =
  'evil \u001b[2Jclear \u001b]8;;http://evil.example\u0007link NUL\u0000 bell\u0007 cr\rX csi\u009bY ' +
  'nonchar\ufffe lone\ud800 rtl\u202eabc <&"\'> 🎉 done';

export const LIST_EXCHANGE: Exchange = {
  seq: 3,
  sentAt: '2026-08-01T10:00:00.120Z',
  durationMs: 12,
  request: { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
  requestHeaders: { 'content-type': 'application/json', authorization: '[redacted]' },
  response: {
    jsonrpc: '2.0',
    id: 3,
    result: { tools: [{ name: 'bad name!', description: HOSTILE_TEXT, inputSchema: { type: 'object' } }] },
  },
  status: 200,
  responseHeaders: { 'content-type': 'application/json' },
  notifications: [],
};

const TIMEOUT_EXCHANGE: Exchange = {
  seq: 9,
  sentAt: '2026-08-01T10:00:01.000Z',
  durationMs: 5000,
  request: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'slow', arguments: {} } },
  notifications: [{ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }],
  failure: { kind: 'timeout', message: 'no response within 5000 ms' },
};

function check(partial: Partial<CheckResult> & Pick<CheckResult, 'id' | 'status' | 'area'>): CheckResult {
  return {
    title: `Title of ${partial.id}`,
    keyword: 'MUST',
    keywordText: 'MUST',
    specRef: 'server/tools#tools',
    message: 'ok',
    evidence: [],
    durationMs: 4,
    ...partial,
    specUrl: partial.specUrl ?? specUrl(partial.specRef ?? 'server/tools#tools', '2026-07-28'),
  };
}

export const CHECKS: CheckResult[] = [
  check({ id: 'tools.capability.declared', area: 'lifecycle', status: 'pass', specRef: 'server/tools#capabilities' }),
  check({
    id: 'tools.name.charset',
    area: 'tools-list',
    status: 'fail',
    title: 'Tool names use only allowed characters',
    specRef: 'server/tools#tool-names',
    tool: 'bad name!',
    message: `Tool name contains forbidden characters; description says: ${HOSTILE_TEXT}`,
    expected: 'names matching ^[A-Za-z0-9_.-]{1,128}$',
    evidence: [LIST_EXCHANGE, { note: 'offending character', data: { char: ' ', index: 3 } }],
    durationMs: 15,
  }),
  check({
    id: 'tools.list.deterministic-order',
    area: 'tools-list',
    status: 'warn',
    keyword: 'SHOULD',
    keywordText: 'SHOULD',
    message: 'Two listings returned tools in different orders',
    expected: 'the same order each time',
    evidence: [LIST_EXCHANGE],
  }),
  check({
    id: 'tools.list.pagination.cursor',
    area: 'tools-list',
    status: 'skip',
    keyword: 'MAY',
    keywordText: 'MAY',
    message: 'The target returned a single page; nothing to paginate',
  }),
  check({
    id: 'tools.call.progress',
    area: 'tools-call',
    status: 'error',
    keyword: 'SHOULD',
    keywordText: 'SHOULD NOT',
    tool: 'slow',
    message: 'The target stopped answering: no response within 5000 ms',
    evidence: [TIMEOUT_EXCHANGE],
    durationMs: 5003,
  }),
  check({
    id: 'tools.call.content-types',
    area: 'tools-call',
    status: 'pass',
    keyword: 'MAY',
    keywordText: 'MAY',
    tool: 'echo',
  }),
];

export const RUN_REPORT: RunReport = {
  tool: { name: 'mcp-tools-conformance', version: '0.1.0' },
  target: { transport: 'http', url: 'http://127.0.0.1:3000/mcp' },
  wire: { protocolVersion: '2026-07-28', reason: 'server/discover advertised 2026-07-28' },
  server: { name: `evil-server \u001b[31m${'x'}`, version: '1.0.0' },
  startedAt: '2026-08-01T10:00:00.000Z',
  durationMs: 6234,
  options: { timeoutMs: 5000, maxDurationMs: 300_000, concurrency: 4, maxRps: 2 },
  stats: { requests: 12, toolsCalled: { slow: 1, echo: 2 } },
  summary: { pass: 2, fail: 1, warn: 1, skip: 1, error: 1 },
  verdict: 'aborted',
  exitCode: 3,
  failOn: 'must',
  aborted: { reason: 'target exited with code 1', duringCheck: 'tools.call.progress' },
  checks: CHECKS,
};
