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

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The listed tools this client will use. Over Streamable HTTP a tool with an invalid `x-mcp-header`
 * annotation is excluded with a warning (Streamable HTTP § Schema Extension); stdio ignores annotations.
 */
export function admitTools(listed: readonly unknown[], kind: Transport['kind'], defects: Defects): CallableTool[] {
  const tools: CallableTool[] = [];
  const folded = new Set<string>();
  for (const definition of listed) {
    if (!isObject(definition) || typeof definition.name !== 'string') {
      warn(`ignoring a listed tool without a string name: ${JSON.stringify(definition)?.slice(0, 200)}`);
      continue;
    }
    const name = definition.name;
    if (defects.has('tool-names-case-folded')) {
      if (folded.has(name.toLowerCase())) continue;
      folded.add(name.toLowerCase());
    }
    if (kind === 'stdio') {
      tools.push({ name, definition, annotations: [] });
      continue;
    }
    const report = checkHeaderAnnotations(definition.inputSchema);
    if (report.problems.length === 0) {
      tools.push({ name, definition, annotations: report.annotations });
    } else if (defects.has('keeps-invalid-x-mcp-header-tools')) {
      tools.push({ name, definition, annotations: sendable(report.annotations) });
    } else {
      warn(`rejecting tool ${JSON.stringify(name)}: ${report.problems.join('; ')}`);
    }
  }
  return tools;
}

/** What a client keeping invalid annotations can still put on the wire: token names, first of each spelling. */
function sendable(annotations: readonly HeaderAnnotation[]): HeaderAnnotation[] {
  const seen = new Set<string>();
  return annotations.filter((a) => {
    const folded = a.header.toLowerCase();
    if (!TOKEN.test(a.header) || seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}
