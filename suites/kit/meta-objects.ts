import { isObject, resultOf } from '../../src/core/jsonrpc.js';
import { methodOf } from '../../src/runner/result-schemas.js';
import type { Evidence } from '../../src/model/check.js';
import type { Exchange, StrayEvent } from '../../src/model/exchange.js';
import { note } from './outcome.js';

/** One `_meta` object the server sent, and where. */
export interface MetaSite {
  where: string;
  tool?: string;
  meta: Record<string, unknown>;
  evidence: Evidence;
}

/**
 * Every place the schema defines a `_meta` in what a tools audit receives: results, tool definitions, content blocks
 * (and an embedded resource's contents), input requests and notification params. Nothing else is searched: `_meta`
 * inside schemas, structuredContent or extension settings is the server's data, not an MCP `_meta`.
 */
export function serverMetaSites(exchanges: readonly Exchange[], strays: readonly StrayEvent[]): MetaSite[] {
  const sites: MetaSite[] = [];
  const add = (where: string, holder: unknown, evidence: Evidence, tool?: string) => {
    if (isObject(holder) && isObject(holder._meta))
      sites.push({ where, meta: holder._meta, evidence, ...(tool === undefined ? {} : { tool }) });
  };
  for (const exchange of exchanges) {
    const method = methodOf(exchange);
    const result = resultOf(exchange.response);
    if (result) {
      if (method === 'tools/call') callResultSites(result, exchange, add);
      else add(`${method} result`, result, exchange);
      if (method === 'tools/list') toolDefinitionSites(result, exchange, add);
    }
    for (const message of exchange.notifications) notificationSite(message, exchange, add);
  }
  for (const stray of strays)
    if (stray.kind === 'notification')
      notificationSite(stray.data, note(`notification received at ${stray.at}`, stray.data), add);
  return sites;
}

type Add = (where: string, holder: unknown, evidence: Evidence, tool?: string) => void;

function toolDefinitionSites(result: Record<string, unknown>, exchange: Exchange, add: Add): void {
  if (!Array.isArray(result.tools)) return;
  for (const tool of result.tools) {
    if (!isObject(tool)) continue;
    const name = typeof tool.name === 'string' ? tool.name : undefined;
    add(`tool ${JSON.stringify(name ?? '?')} definition`, tool, exchange, name);
  }
}

function callResultSites(result: Record<string, unknown>, exchange: Exchange, add: Add): void {
  const params = isObject(exchange.request) && isObject(exchange.request.params) ? exchange.request.params : {};
  const tool = typeof params.name === 'string' ? params.name : undefined;
  const label = `tools/call ${JSON.stringify(tool ?? '?')} result`;
  add(label, result, exchange, tool);
  if (Array.isArray(result.content)) {
    result.content.forEach((block, i) => {
      add(`${label} content[${i}]`, block, exchange, tool);
      if (isObject(block)) add(`${label} content[${i}].resource`, block.resource, exchange, tool);
    });
  }
  if (isObject(result.inputRequests)) {
    for (const [key, request] of Object.entries(result.inputRequests)) {
      if (isObject(request)) add(`${label} inputRequests.${key}.params`, request.params, exchange, tool);
    }
  }
}

function notificationSite(message: unknown, evidence: Evidence, add: Add): void {
  if (isObject(message) && !('id' in message) && typeof message.method === 'string')
    add(`${message.method} notification params`, message.params, evidence);
}
