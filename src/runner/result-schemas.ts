import { isObject, resultOf } from '../core/jsonrpc.js';
import { hasWireSchema, validateWire, type SchemaIssue, type WireSchemaName } from '../schema/validator.js';
import type { Exchange } from '../model/exchange.js';
import { attribute } from './attribution.js';
import { isInitializeRevision, type Revision } from '../core/revision.js';

export interface AttributedIssue extends SchemaIssue {
  check: string;
  method: string;
}

export function methodOf(exchange: Exchange): string {
  return isObject(exchange.request) && typeof exchange.request.method === 'string' ? exchange.request.method : '';
}

function schemaFor(method: string, result: Record<string, unknown>, wire: Revision): WireSchemaName | undefined {
  switch (method) {
    case 'server/discover':
      return 'DiscoverResult';
    case 'tools/list':
      return 'ListToolsResult';
    case 'tools/call':
      // resultType arrives with 2026-07-28: before it, a member of that name is one the schema does not name.
      if (isInitializeRevision(wire)) return 'CallToolResult';
      if (result.resultType === 'input_required') return 'InputRequiredResult';
      // An unknown resultType has no core shape to hold it to: base.resulttype.set reports the value itself.
      return result.resultType === undefined || result.resultType === 'complete' ? 'CallToolResult' : undefined;
    case 'initialize':
      return 'InitializeResult';
    default:
      return undefined;
  }
}

/** Validates each received result once against its method's wire schema and attributes every issue to one check. */
export class ResultSchemaCache {
  private readonly cache = new Map<number, AttributedIssue[]>();

  issues(exchange: Exchange, wire: Revision): AttributedIssue[] {
    const cached = this.cache.get(exchange.seq);
    if (cached) return cached;
    const method = methodOf(exchange);
    const result = resultOf(exchange.response);
    const name = result ? schemaFor(method, result, wire) : undefined;
    const issues: AttributedIssue[] =
      result && name && hasWireSchema(name, wire)
        ? validateWire(name, wire, result).map((issue) => ({ ...issue, method, check: attribute(method, issue) }))
        : [];
    this.cache.set(exchange.seq, issues);
    return issues;
  }

  issuesFor(check: string, exchange: Exchange, wire: Revision): AttributedIssue[] {
    return this.issues(exchange, wire).filter((issue) => issue.check === check);
  }
}

export function describeIssues(issues: readonly SchemaIssue[], limit = 5): string {
  const shown = issues.slice(0, limit).map((i) => `${i.instancePath || '(root)'} ${i.message}`);
  const more = issues.length > limit ? `; and ${issues.length - limit} more` : '';
  return shown.join('; ') + more;
}
