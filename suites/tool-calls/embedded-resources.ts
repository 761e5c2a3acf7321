import { defineCheck } from '../kit/define-check.js';
import { type CheckDefinition, isObject, methodOf, resultOf, type SpecSentence } from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';

const EMBEDDED: SpecSentence = {
  ref: 'server/tools#embedded-resources',
  text: 'Servers that use embedded resources SHOULD implement the resources capability:',
  keyword: 'SHOULD',
};

const embedsResource = (result: Record<string, unknown>): boolean =>
  Array.isArray(result.content) && result.content.some((block) => isObject(block) && block.type === 'resource');

export const embeddedImpliesResources: CheckDefinition = defineCheck({
  id: 'tools.result.embedded-implies-resources',
  title: 'A server whose tool results embed resources declares the resources capability',
  area: 'tool-calls',
  // Before 2025-06-18 the tools page only says resources MAY be embedded, and nothing of the resources capability.
  sentences: { '2026-07-28': [EMBEDDED], '2025-11-25': [EMBEDDED], '2025-06-18': [EMBEDDED] },
  needs: ['tool-call'],
  phase: 'final',
  async run(ctx) {
    const embedding = ctx.exchanges().filter((e) => {
      const result = methodOf(e) === 'tools/call' ? resultOf(e.response) : undefined;
      return result !== undefined && embedsResource(result);
    });
    if (embedding.length === 0)
      return [skip('no tool result of the audit embedded a resource (a content block of type "resource")')];
    const { capabilities, exchange } = await ctx.capabilities();
    if (isObject(capabilities?.resources))
      return [
        pass(`${embedding.length} tool result(s) embed resources, and the server declares the resources capability`, [
          exchange,
        ]),
      ];
    return [
      fail(
        `${embedding.length} tool result(s) embed resources (content of type "resource"), but the server's ` +
          `capabilities have no resources entry`,
        'capabilities.resources declared by a server whose tools embed resources, so that a client can read them again',
        [exchange, ...embedding.slice(0, 2)],
      ),
    ];
  },
});
