import { defineCheck } from '../kit/define-check.js';
import {
  type CheckDefinition,
  CLIENT_CAPABILITY_OF,
  describeIssues,
  ERR,
  errorOf,
  isObject,
  LATEST_REVISION,
  type StrayEvent,
} from '../kit/index.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { fromRevision, onRevisions, perRevision, schemaRule, since } from '../kit/same-sentences.js';

export const toolsCapabilityDeclared: CheckDefinition = defineCheck({
  id: 'tools.cap.declare',
  title: 'A server that serves tools declares the tools capability',
  area: 'capabilities',
  sentences: fromRevision('2024-11-05', {
    ref: 'server/tools#capabilities',
    text: 'Servers that support tools MUST declare the tools capability',
    keyword: 'MUST',
  }),
  async run(ctx) {
    const { capabilities, exchange } = await ctx.capabilities();
    if (!capabilities) {
      return [
        skip(
          `no capabilities object to inspect (` +
            `${ctx.revision === LATEST_REVISION ? 'server/discover' : 'initialize'} gave none)`,
        ),
      ];
    }
    if (isObject(capabilities.tools)) return [pass('capabilities.tools is declared', [exchange])];
    const walk = await ctx.tools();
    const first = walk.pages[0]!.exchange;
    const error = errorOf(first.response);
    if (error && error.code === ERR.methodNotFound) {
      return [
        skip('the server declares no tools capability and does not implement tools/list: it does not offer tools'),
      ];
    }
    return [
      fail(
        `capabilities.tools is ` +
          `${capabilities.tools === undefined ? 'absent' : `not an object (${JSON.stringify(capabilities.tools)})`}` +
          ` but tools/list is served`,
        'servers that support tools MUST declare the tools capability (an object, e.g. {} or {"listChanged": true})',
        [exchange, first],
      ),
    ];
  },
});

export const listChangedType: CheckDefinition = defineCheck({
  id: 'tools.cap.list-changed-type',
  title: 'capabilities.tools.listChanged is a boolean when present',
  specRef: 'server/tools#capabilities',
  area: 'capabilities',
  sentences: perRevision(since('2024-11-05'), (wire) => [
    schemaRule(wire, 'ServerCapabilities/properties/tools/properties/listChanged/type', '"boolean"'),
    {
      ref: 'server/tools#capabilities',
      text:
        'listChanged indicates whether the server will emit notifications when the list of available tools ' +
        'changes.',
      keyword: 'descriptive',
    },
  ]),
  async run(ctx) {
    const { capabilities, exchange } = await ctx.capabilities();
    const tools = capabilities?.tools;
    if (!isObject(tools)) return [skip('no tools capability object to inspect')];
    if (!('listChanged' in tools)) return [pass('listChanged is absent (allowed)', [exchange])];
    const issues = ctx.schemas.issuesFor(this.id, exchange, ctx.revision);
    if (issues.length > 0 || typeof tools.listChanged !== 'boolean') {
      return [
        fail(
          `capabilities.tools.listChanged is ${JSON.stringify(tools.listChanged)}` +
            `${issues.length ? ` (${describeIssues(issues)})` : ''}`,
          'listChanged: true or false',
          [exchange],
        ),
      ];
    }
    return [pass(`listChanged: ${String(tools.listChanged)}`, [exchange])];
  },
});

/**
 * On the `initialize` wire the client declares its capabilities once, in the initialize request; a server request that
 * needs a client capability (roots/list, sampling/createMessage, elicitation/create) is judged against that
 * declaration, read from the recorded initialize exchange. ping needs none; a method of no capability is only counted
 * (the client answered it -32601).
 */
export const negotiatedCapabilitiesOnly: CheckDefinition = defineCheck({
  id: 'lifecycle.capabilities.negotiated',
  covers: ['meta.caps.no-undeclared'],
  title: 'The server sends the client only requests of capabilities the client declared in initialize',
  area: 'capabilities',
  // A MUST from 2025-06-18 on; 2025-03-26 and 2024-11-05 say SHOULD.
  sentences: {
    ...onRevisions(['2025-11-25', '2025-06-18'], {
      ref: 'basic/lifecycle#operation',
      text: 'Both parties MUST: … Only use capabilities that were successfully negotiated',
      keyword: 'MUST',
    }),
    ...onRevisions(['2025-03-26', '2024-11-05'], {
      ref: 'basic/lifecycle#operation',
      text: 'Both parties SHOULD: … Only use capabilities that were successfully negotiated',
      keyword: 'SHOULD',
    }),
  },
  phase: 'final',
  run(ctx) {
    const initialize = ctx.negotiation.initialize;
    if (!initialize) return [skip('no initialize exchange to read the declared client capabilities from')];
    const params = isObject(initialize.request) && isObject(initialize.request.params) ? initialize.request.params : {};
    const declared = isObject(params.capabilities) ? params.capabilities : {};
    const requests = ctx.strays().filter((s) => s.kind === 'server-request' && isObject(s.data));
    if (requests.length === 0) return [pass('the server sent the client no request')];
    const undeclared = new Map<string, StrayEvent[]>();
    for (const stray of requests) {
      const method = (stray.data as Record<string, unknown>).method;
      const capability =
        typeof method === 'string' && Object.hasOwn(CLIENT_CAPABILITY_OF, method)
          ? CLIENT_CAPABILITY_OF[method]!
          : undefined;
      if (capability !== undefined && !Object.hasOwn(declared, capability))
        undeclared.set(method as string, [...(undeclared.get(method as string) ?? []), stray]);
    }
    const methods = [...new Set(requests.map((s) => String((s.data as Record<string, unknown>).method).slice(0, 100)))];
    const shown = (strays: readonly StrayEvent[]) =>
      strays.slice(0, 3).map((s) =>
        note(`the server's request (at ${s.at}) and the client's answer`, {
          request: s.data,
          answer: s.answer ?? 'left unanswered',
        }),
      );
    if (undeclared.size === 0) {
      return [
        pass(
          `${requests.length} request(s) from the server (${methods.join(', ')}) needed no client capability ` +
            `beyond those declared: ${JSON.stringify(declared)}`,
          shown(requests),
        ),
      ];
    }
    return [...undeclared].map(([method, strays]) => {
      const capability = CLIENT_CAPABILITY_OF[method]!;
      const inFlight = ctx.exchanges().find((e) => e.notifications.includes(strays[0]!.data));
      return fail(
        `the server sent ${method} ${strays.length === 1 ? 'once' : `${strays.length} times`}, which uses the ` +
          `client's ${capability} capability, but the client declared only ${JSON.stringify(declared)} in ` +
          `initialize`,
        `no ${method} request unless the client declared the ${capability} capability in initialize`,
        [...shown(strays), ...(inFlight ? [inFlight] : []), initialize],
      );
    });
  },
});

export const CAPABILITY_CHECKS = [toolsCapabilityDeclared, listChangedType, negotiatedCapabilitiesOnly] as const;
