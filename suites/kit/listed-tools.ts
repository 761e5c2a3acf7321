import { isObject } from '../../src/core/jsonrpc.js';
import type { ToolPage, ToolWalk } from '../../src/protocol/tool-walk.js';
import type { CheckContext } from '../../src/runner/context.js';
import { describeIssues, type AttributedIssue } from '../../src/runner/result-schemas.js';
import type { Evidence, Outcome } from '../../src/model/check.js';
import { note, pass, skip } from './outcome.js';

export interface ListedTool {
  tool: Record<string, unknown>;
  /** The tool's name, or `#<n>` when it has none. */
  label: string;
  page: ToolPage;
  /** Index within its page's `tools` array (schema issue paths are page-relative). */
  index: number;
}

/** The listed tools of each walk, built once: some 25 checks ask for them (10,000 tools: 25 MB of copies otherwise). */
const listedByWalk = new WeakMap<ToolWalk, readonly ListedTool[]>();

/**
 * Every tool object of the walk with the page it came from; the same array for every check of the audit (do not change
 * it).
 */
export async function listedTools(ctx: CheckContext): Promise<readonly ListedTool[]> {
  const walk = await ctx.tools();
  let listed = listedByWalk.get(walk);
  if (listed === undefined) {
    listed = Object.freeze(listedOf(walk));
    listedByWalk.set(walk, listed);
  }
  return listed;
}

function listedOf(walk: ToolWalk): ListedTool[] {
  const out: ListedTool[] = [];
  let n = 0;
  for (const page of walk.pages) {
    const tools = page.result?.tools;
    if (!Array.isArray(tools)) continue;
    tools.forEach((tool, index) => {
      n += 1;
      if (isObject(tool)) out.push({ tool, label: typeof tool.name === 'string' ? tool.name : `#${n}`, page, index });
    });
  }
  return out;
}

/** Evidence for one tool: its definition, not the whole page. */
export function toolEvidence(t: ListedTool, extra?: Evidence[]): Evidence[] {
  return [note(`tool definition from tools/list (exchange #${t.page.exchange.seq})`, t.tool), ...(extra ?? [])];
}

/** Schema issues attributed to `check`, grouped by the tool they concern. */
export async function toolSchemaIssues(ctx: CheckContext, check: string): Promise<Map<ListedTool, AttributedIssue[]>> {
  const byTool = new Map<ListedTool, AttributedIssue[]>();
  for (const t of await listedTools(ctx)) {
    const prefix = `/tools/${t.index}`;
    const issues = ctx.schemas
      .issuesFor(check, t.page.exchange, ctx.revision)
      .filter((i) => i.instancePath === prefix || i.instancePath.startsWith(prefix + '/'))
      .map((i) => ({ ...i, instancePath: i.instancePath.slice(prefix.length) }));
    if (issues.length > 0) byTool.set(t, issues);
  }
  return byTool;
}

/**
 * One outcome per tool that breaks the rule, or a single pass naming how many tools were checked.
 * `judge` returns undefined when the tool conforms.
 */
export interface PerToolOptions {
  /** What the pass message says was checked, e.g. "tool names". */
  checked: string;
  /** Only these tools are judged. */
  applies?: (t: ListedTool) => boolean;
  /** The skip reason when no tool applies. */
  none?: string;
}

export async function perTool(
  ctx: CheckContext,
  judge: (t: ListedTool) => Omit<Outcome, 'tool'> | undefined,
  options: PerToolOptions,
): Promise<Outcome[]> {
  const tools = (await listedTools(ctx)).filter(options.applies ?? (() => true));
  if (tools.length === 0) return [skip(options.none ?? 'the server lists no tools')];
  const outcomes: Outcome[] = [];
  for (const t of tools) {
    const verdict = judge(t);
    if (verdict) outcomes.push({ ...verdict, tool: t.label, evidence: verdict.evidence ?? toolEvidence(t) });
  }
  return outcomes.length > 0 ? outcomes : [pass(`${tools.length} ${options.checked} checked`)];
}

export function issuesMessage(issues: readonly AttributedIssue[]): string {
  return describeIssues(issues.map((i) => ({ ...i, instancePath: i.instancePath || '' })));
}
