import { errorOf, isObject } from '../../src/jsonrpc.js';
import { describeIssues } from '../../src/runner/result-schemas.js';
import type { CheckDefinition } from '../../src/runner/types.js';
import { MODERN_VERSION, WIRES } from '../../src/model/wire.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { ERR } from '../../src/protocol/constants.js';

export const toolsCapabilityDeclared: CheckDefinition = {
  id: 'tools.cap.declare',
  keyword: 'MUST',
  title: 'A server that serves tools declares the tools capability',
  specRef: 'server/tools#capabilities',
  area: 'capabilities',
  wires: WIRES,
  sentences: {
    '2026-07-28': [{ ref: 'server/tools#capabilities', text: 'Servers that support tools MUST declare the tools capability', keyword: 'MUST' }],
    '2025-11-25': [{ ref: 'server/tools#capabilities', text: 'Servers that support tools MUST declare the tools capability', keyword: 'MUST' }],
  },
  async run(ctx) {
    const { capabilities, exchange } = await ctx.capabilities();
    if (!capabilities) {
      return [skip(`no capabilities object to inspect (${ctx.wire === MODERN_VERSION ? 'server/discover' : 'initialize'} gave none)`)];
    }
    if (isObject(capabilities.tools)) return [pass('capabilities.tools is declared', [exchange])];
    const walk = await ctx.tools();
    const first = walk.pages[0]!.exchange;
    const error = errorOf(first.response);
    if (error && error.code === ERR.methodNotFound) {
      return [skip('the server declares no tools capability and does not implement tools/list: it does not offer tools')];
    }
    return [
      fail(
        `capabilities.tools is ${capabilities.tools === undefined ? 'absent' : `not an object (${JSON.stringify(capabilities.tools)})`} but tools/list is served`,
        'servers that support tools MUST declare the tools capability (an object, e.g. {} or {"listChanged": true})',
        [exchange, first],
      ),
    ];
  },
};

export const listChangedType: CheckDefinition = {
  id: 'tools.cap.list-changed-type',
  keyword: 'schema.json structural rule',
  title: 'capabilities.tools.listChanged is a boolean when present',
  specRef: 'server/tools#capabilities',
  area: 'capabilities',
  wires: WIRES,
  sentences: {
    '2026-07-28': [
      { ref: 'schema.json#/$defs/ServerCapabilities/properties/tools/properties/listChanged/type', text: '"boolean"', keyword: 'schema.json structural rule' },
      { ref: 'server/tools#capabilities', text: 'listChanged indicates whether the server will emit notifications when the list of available tools changes.', keyword: 'descriptive' },
    ],
    '2025-11-25': [
      { ref: 'schema.json#/$defs/ServerCapabilities/properties/tools/properties/listChanged/type', text: '"boolean"', keyword: 'schema.json structural rule' },
      { ref: 'server/tools#capabilities', text: 'listChanged indicates whether the server will emit notifications when the list of available tools changes.', keyword: 'descriptive' },
    ],
  },
  async run(ctx) {
    const { capabilities, exchange } = await ctx.capabilities();
    const tools = capabilities?.tools;
    if (!isObject(tools)) return [skip('no tools capability object to inspect')];
    if (!('listChanged' in tools)) return [pass('listChanged is absent (allowed)', [exchange])];
    const issues = ctx.schemas.issuesFor(this.id, exchange, ctx.wire);
    if (issues.length > 0 || typeof tools.listChanged !== 'boolean') {
      return [
        fail(
          `capabilities.tools.listChanged is ${JSON.stringify(tools.listChanged)}${issues.length ? ` (${describeIssues(issues)})` : ''}`,
          'listChanged: true or false',
          [exchange],
        ),
      ];
    }
    return [pass(`listChanged: ${String(tools.listChanged)}`, [exchange])];
  },
};

export const CAPABILITY_CHECKS = [toolsCapabilityDeclared, listChangedType] as const;
