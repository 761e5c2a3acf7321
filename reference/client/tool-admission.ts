import { isObject } from '../../src/core/jsonrpc.js';
import type { Defects } from './defects/active.js';
import { checkHeaderAnnotations, type HeaderAnnotation } from './header-annotations.js';
import { warn } from './log.js';
import type { Transport } from './transport.js';

export interface CallableTool {
  name: string;
  definition: Record<string, unknown>;
  /** The `Mcp-Param-*` headers to mirror (HTTP only). */
  annotations: readonly HeaderAnnotation[];
}

/**
 * The listed tools this client will use. Over Streamable HTTP a tool with an invalid `x-mcp-header`
 * annotation is excluded with a warning (Streamable HTTP § Schema Extension); stdio ignores annotations.
 */
export function admitTools(listed: readonly unknown[], kind: Transport['kind'], defects: Defects): CallableTool[] {
  const tools: CallableTool[] = [];
  const names: string[] = [];
  for (const definition of listed) {
    if (!isObject(definition) || typeof definition.name !== 'string') {
      warn(`ignoring a listed tool without a string name: ${JSON.stringify(definition)?.slice(0, 200)}`);
      continue;
    }
    const name = definition.name;
    const dropped = defects.at.dropsListedTool(name, names);
    names.push(name);
    if (dropped) continue;
    if (kind === 'stdio') {
      tools.push({ name, definition, annotations: [] });
      continue;
    }
    const report = checkHeaderAnnotations(definition.inputSchema);
    const annotations =
      report.problems.length === 0 ? report.annotations : defects.at.invalidAnnotations(report.annotations);
    if (annotations) tools.push({ name, definition, annotations });
    else warn(`rejecting tool ${JSON.stringify(name)}: ${report.problems.join('; ')}`);
  }
  return tools;
}
