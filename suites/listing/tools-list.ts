import { defineCheck } from '../kit/define-check.js';
import {
  type CheckDefinition,
  describeIssues,
  ERR,
  errorOf,
  INITIALIZE_REVISIONS,
  isInitializeRevision,
} from '../kit/index.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { fromRevision, onRevisions, perRevision, schemaRule } from '../kit/same-sentences.js';

export const toolsListResponds: CheckDefinition = defineCheck({
  id: 'tools.list.respond',
  title: 'tools/list answers every page with a result holding a tools array (and a string nextCursor when more follow)',
  specRef: 'server/tools#listing-tools',
  area: 'tools-list',
  sentences: {
    '2026-07-28': [
      {
        ref: 'server/tools#capabilities',
        text:
          'Servers that declare the tools capability MUST respond to tools/list requests with the set of tools ' +
          'currently available to the requesting client.',
        keyword: 'MUST',
      },
      {
        ref: 'schema.json#/$defs/ListToolsResult/properties/tools/type',
        text: '"array"',
        keyword: 'schema.json structural rule',
      },
      {
        ref: 'schema.json#/$defs/ListToolsResult/properties/nextCursor/type',
        text: '"string"',
        keyword: 'schema.json structural rule',
      },
    ],
    // The initialize revisions state no duty to answer tools/list: the shape of a ListToolsResult is all that is
    // required.
    ...perRevision(INITIALIZE_REVISIONS, (wire) => [
      schemaRule(wire, 'ListToolsResult/required', '["tools"]'),
      schemaRule(wire, 'ListToolsResult/properties/tools/type', '"array"'),
      schemaRule(wire, 'ListToolsResult/properties/nextCursor/type', '"string"'),
      {
        ref: 'server/tools#listing-tools',
        text: 'To discover available tools, clients send a tools/list request.',
        keyword: 'descriptive',
      },
    ]),
  },
  async run(ctx) {
    const walk = await ctx.tools();
    const { capabilities } = await ctx.capabilities();
    if (walk.stop.kind === 'error') {
      const first = walk.pages[walk.pages.length - 1]!.exchange;
      const error = errorOf(first.response);
      if (error?.code === ERR.methodNotFound && capabilities && !('tools' in capabilities)) {
        return [skip('the server does not offer tools (no tools capability, tools/list is not implemented)')];
      }
      if (isInitializeRevision(ctx.revision)) {
        // Only the result's shape is a rule on this wire; an error answer breaks none, it just lists no tools.
        return [
          {
            status: 'warn',
            message: `${walk.stop.message} (${ctx.revision} has no sentence requiring an answer, so this is a warning)`,
            expected: 'a ListToolsResult for every page',
            evidence: [first],
          },
        ];
      }
      return [
        fail(
          walk.stop.message,
          'a ListToolsResult for every page: servers that declare tools MUST respond to tools/list with the ' +
            'set of tools',
          [first],
        ),
      ];
    }
    const bad = walk.pages
      .map((page, i) => ({ page, i, issues: ctx.schemas.issuesFor(this.id, page.exchange, ctx.revision) }))
      .filter((p) => p.issues.length > 0);
    if (bad.length === 0) {
      return [pass(`${walk.pages.length} page(s), ${walk.tools.length} tool(s)`, [note('pages', walk.pages.length)])];
    }
    return [
      fail(
        bad.map((b) => `page ${b.i + 1}: ${describeIssues(b.issues)}`).join('; '),
        'each page: {"tools": [Tool, …], "nextCursor"?: string}',
        bad.slice(0, 3).map((b) => b.page.exchange),
      ),
    ];
  },
});

export const paginationTerminates: CheckDefinition = defineCheck({
  id: 'page.walk.terminates',
  covers: ['tools.list.respond'],
  title:
    'Following nextCursor reaches the end of the tool list (no cursor loop; an inference from the pagination model)',
  area: 'tools-list',
  sentences: fromRevision('2024-11-05', {
    ref: 'server/utilities/pagination#response-format',
    text:
      'Pagination starts when the server sends a response that includes: The current page of results An ' +
      'optional nextCursor field if more results exist',
    keyword: 'descriptive',
  }),
  async run(ctx) {
    const walk = await ctx.tools();
    switch (walk.stop.kind) {
      case 'complete':
        return [pass(`the walk ended after ${walk.pages.length} page(s) with no nextCursor`)];
      case 'cursor-loop': {
        const { page, cursor, firstUsedOnPage } = walk.stop;
        return [
          fail(
            `page ${page} returned nextCursor ${JSON.stringify(cursor)}, which already led to page ` +
              `${firstUsedOnPage}: the list never ends`,
            'nextCursor only while more results exist, so that following it reaches the end of the list',
            [walk.pages[firstUsedOnPage - 2]?.exchange, walk.pages[page - 1]!.exchange].filter((e) => e !== undefined),
          ),
        ];
      }
      case 'page-repeat': {
        const { page, repeatsPage, exchange } = walk.stop;
        return [
          fail(
            `page ${page} (reached with a cursor not seen before) lists exactly the tools of page ` +
              `${repeatsPage}: the cursors lead round in a loop, so the walk stopped there`,
            'nextCursor only while more results exist, so that following it reaches the end of the list',
            [walk.pages[repeatsPage - 1]!.exchange, exchange],
          ),
        ];
      }
      case 'page-cap':
        return [
          fail(
            `still not at the end after ${walk.stop.pages} pages`,
            'a tool list that ends (raise the cap only if the server really has this many pages)',
            walk.pages.slice(-2).map((p) => p.exchange),
          ),
        ];
      default:
        return [skip(`the walk stopped early (${walk.stop.message}); see tools.list.respond`)];
    }
  },
});

export const toolNamesUnique: CheckDefinition = defineCheck({
  id: 'tools.name.unique',
  title: 'Tool names are unique within the server (across all pages)',
  area: 'tools-list',
  sentences: {
    ...fromRevision('2025-11-25', {
      ref: 'server/tools#tool-names',
      text: 'Tool names SHOULD be unique within a server.',
      keyword: 'SHOULD',
    }),
    // Before § Tool Names (2025-11-25), the page describes a name as the tool's unique identifier: a duplicate can only
    // warn.
    ...onRevisions(['2025-06-18', '2025-03-26', '2024-11-05'], {
      ref: 'server/tools#tool',
      text: 'name: Unique identifier for the tool',
      keyword: 'descriptive',
    }),
  },
  async run(ctx) {
    const walk = await ctx.tools();
    const named = walk.tools.filter((t) => typeof t.name === 'string');
    if (named.length === 0) return [skip('no named tools to compare')];
    const counts = new Map<string, number>();
    for (const t of named) counts.set(t.name as string, (counts.get(t.name as string) ?? 0) + 1);
    const dupes = [...counts].filter(([, n]) => n > 1);
    if (dupes.length === 0) {
      const byFold = new Map<string, string[]>();
      for (const name of counts.keys())
        byFold.set(name.toLowerCase(), [...(byFold.get(name.toLowerCase()) ?? []), name]);
      const caseOnly = [...byFold.values()].filter((names) => names.length > 1);
      const info = caseOnly.length
        ? `; for information, names that differ only by case: ${caseOnly.map((n) => n.join(' / ')).join(', ')} ` +
          `(allowed, names are case-sensitive, but easy to confuse)`
        : '';
      return [pass(`${named.length} tool names, all distinct${info}`)];
    }
    return dupes.map(([name, n]) => ({
      ...fail(
        `the name ${JSON.stringify(name)} appears ${n} times in the tool list`,
        'each tool name appears once: tools/call addresses tools by name',
        walk.pages
          .filter(
            (p) =>
              Array.isArray(p.result?.tools) && (p.result!.tools as { name?: unknown }[]).some((t) => t?.name === name),
          )
          .map((p) => p.exchange),
      ),
      tool: name,
    }));
  },
});

export const TOOLS_LIST_CHECKS = [toolsListResponds, paginationTerminates, toolNamesUnique] as const;
