/** Builders and a tiny HTTP client shared by the reference server's tests. */
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import type { JsonRpcId } from '../../src/core/jsonrpc.js';
import { activeDefects, NO_DEFECTS, type DefectName } from './defects/index.js';
import type { HandlerContext } from './reply.js';
import type { InitializeRevision } from './revisions.js';
import { createServerState } from './server-state.js';
import { InitializeSession } from './session.js';

export const VERSION = '2026-07-28';

export function meta(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'reference-server-tests', version: '0.0.0' },
    ...extra,
  };
}

export function rpc(id: JsonRpcId, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method, params: { _meta: meta(), ...params } };
}

/** `revision`: the context of a server started as that initialize revision (--protocol-version), one session. */
export function stdioContext(defects: readonly DefectName[] = [], revision?: InitializeRevision): HandlerContext {
  return {
    transport: 'stdio',
    defects: defects.length ? activeDefects(defects) : NO_DEFECTS,
    state: createServerState(),
    connection: String(process.pid),
    ...(revision ? { session: new InitializeSession(revision) } : {}),
  };
}

/** The initialize request of a client offering this revision. */
export function initializeRequest(id: JsonRpcId, protocolVersion: string, capabilities: Record<string, unknown> = {}) {
  return legacyRpc(id, 'initialize', {
    protocolVersion,
    capabilities,
    clientInfo: { name: 'reference-server-tests', version: '0.0.0' },
  });
}

/** A request of the initialize revisions: no per-request `_meta`. */
export function legacyRpc(id: JsonRpcId, method: string, params?: Record<string, unknown>) {
  return { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
}

/** The standard Streamable HTTP headers a conforming client sends for this body. */
export function standardHeaders(body: { method: string; params?: Record<string, unknown> }): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': VERSION,
    'Mcp-Method': body.method,
  };
  if (body.method === 'tools/call' && typeof body.params?.name === 'string') headers['Mcp-Name'] = body.params.name;
  return headers;
}

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** JSON body (none for a body that is not JSON), or every SSE `data:` payload, parsed. */
  messages: unknown[];
}

/** `agent` picks the connection: a keep-alive Agent reuses one, `false` opens a new one for this request. */
export function post(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  method = 'POST',
  agent?: Agent | false,
): Promise<HttpResult> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, ...(agent === undefined ? {} : { agent }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          messages: parseMessages(res.headers, text),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(method === 'POST' ? payload : undefined);
  });
}

function parseMessages(headers: IncomingHttpHeaders, text: string): unknown[] {
  if (text === '') return [];
  if (!String(headers['content-type']).startsWith('text/event-stream')) {
    try {
      return [JSON.parse(text) as unknown];
    } catch {
      return [];
    }
  }
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as unknown);
}
