import { type ClientCheckDefinition, evidenceOf, TOOL } from '../kit/index.js';
import { clientCheck, fail, pass, sentence, skip } from './kit.js';

const PAIR = [TOOL.caseLower, TOOL.caseMixed] as const;

export const CASE_SENSITIVE_NAMES = clientCheck({
  id: 'tools.name.case-sensitive',
  title: 'Two tools whose names differ only in case stay two tools, each called by its exact name',
  area: 'tool-names',
  scenario: 'meta',
  sentences: [sentence('server/tools#tool-names', 'Tool names SHOULD be considered case-sensitive.', 'SHOULD')],
  run(ctx) {
    const listed = ctx.listedTools();
    if (!PAIR.every((name) => listed.has(name)))
      return [skip(`the client did not receive both ${PAIR.join(' and ')} in a listing`)];
    const calls = ctx.requests.filter(
      (r) =>
        r.method === 'tools/call' &&
        typeof r.params.name === 'string' &&
        r.params.name.toLowerCase() === TOOL.caseLower,
    );
    if (calls.length === 0) return [skip(`the client called neither ${PAIR.join(' nor ')}`)];
    const called = new Set(calls.map((r) => r.params.name as string));
    const strays = [...called].filter((name) => !(PAIR as readonly string[]).includes(name));
    const missing = PAIR.filter((name) => !called.has(name));
    const evidence = calls.slice(0, 3).map((r) => evidenceOf(r.seen));
    if (strays.length === 0 && missing.length === 0)
      return [pass(`${PAIR.join(' and ')}, listed side by side, were each called by their exact names`, evidence)];
    const problems = [
      ...(strays.length > 0
        ? [`called under name(s) never listed: ${strays.map((n) => JSON.stringify(n)).join(', ')}`]
        : []),
      ...(missing.length > 0
        ? [
            `never called ${missing.join(', ')}, although ` +
              `${PAIR.filter((n) => !missing.includes(n)).join(', ')} was called: names that differ only in case ` +
              `were taken for one tool`,
          ]
        : []),
    ];
    return [fail(problems.join('; '), `a tools/call for each of ${PAIR.join(' and ')}, by its exact name`, evidence)];
  },
});

export const TOOL_NAME_CHECKS: readonly ClientCheckDefinition[] = [CASE_SENSITIVE_NAMES];
