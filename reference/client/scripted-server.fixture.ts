import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a client's JSON, read at any depth by tests
type Json = any;

/** One POST as the scripted server received it. */
export interface Arrival {
  method: string | undefined;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: Json;
}

export interface ScriptedServer {
  url: string;
  arrivals: Arrival[];
  calls(): Arrival[];
  close(): Promise<void>;
}

const SAFE_META = { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '0' } };

/** Tools spread over three pages; the cursors are "" and " padded " to catch clients that end or trim. */
export function pages(origin: string): Array<{ cursor: string | undefined; tools: object[]; next?: string }> {
  return [
    {
      cursor: undefined,
      next: '',
      tools: [
        {
          name: 'headers',
          inputSchema: {
            type: 'object',
            properties: {
              region: { type: 'string', 'x-mcp-header': 'Region' },
              greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
              literal: { type: 'string', 'x-mcp-header': 'Literal' },
              count: { type: 'integer', 'x-mcp-header': 'Count' },
              flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
              gone: { type: 'string', 'x-mcp-header': 'Gone' },
              absent: { type: 'string', 'x-mcp-header': 'Absent' },
              outer: { type: 'object', properties: { inner: { type: 'string', 'x-mcp-header': 'Inner' } } },
            },
            examples: [
              {
                region: 'us-west1',
                greeting: 'Hello, 世界',
                literal: '=?base64?literal?=',
                count: -7,
                flag: false,
                gone: null,
                outer: { inner: ' padded ' },
              },
            ],
          },
        },
        {
          name: 'bad_header',
          inputSchema: {
            type: 'object',
            properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } },
          },
        },
      ],
    },
    {
      cursor: '',
      next: ' padded ',
      tools: [
        {
          name: 'ask',
          inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, examples: [{ topic: 'x' }] },
        },
        {
          name: 'typed',
          inputSchema: { type: 'object' },
          outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        },
      ],
    },
    {
      cursor: ' padded ',
      tools: [
        { name: 'streamed', inputSchema: { type: 'object' } },
        { name: 'cut_short', inputSchema: { type: 'object' } },
        { name: 'no_result_type', inputSchema: { type: 'object' } },
        { name: 'task_result', inputSchema: { type: 'object' } },
        {
          name: 'external_ref',
          inputSchema: { type: 'object' },
          outputSchema: { $ref: `${origin}/never-fetched.json` },
        },
        { name: 'ask_stateless', inputSchema: { type: 'object' } },
      ],
    },
  ];
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const arrivals: Arrival[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: Json;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      arrivals.push({ method: req.method, headers: req.headers, raw, body });
      if (req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const message = Array.isArray(body) ? body[0] : body;
      if (!message || !('id' in message) || !('method' in message)) {
        res.writeHead(202).end();
        return;
      }
      const reply = (result: object) => ({ jsonrpc: '2.0', id: message.id, result });
      const listed = message.method === 'tools/list' && pages(origin).some((p) => p.cursor === message.params?.cursor);
      if (message.method === 'tools/list' && !listed) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Invalid cursor' } }));
        return;
      }
      if (message.method === 'tools/call' && message.params.name === 'streamed') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write(': keep-alive\n\n');
        res.write(
          `data: ` +
            String(
              JSON.stringify({
                jsonrpc: '2.0',
                method: 'notifications/progress',
                params: { progressToken: 1, progress: 1 },
              }),
            ) +
            `\n\n`,
        );
        res.end(`event: message\ndata: ${JSON.stringify(reply({ resultType: 'complete', content: [] }))}\r\n\r\n`);
        return;
      }
      if (message.method === 'tools/call' && message.params.name === 'cut_short') {
        // Events with ids, then the end of the stream without the response.
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end('id: e-1\ndata:\n\n');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(reply(answer(message, origin))));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/mcp`,
    arrivals,
    calls: () => arrivals.filter((a) => a.body?.method === 'tools/call'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function answer(message: Json, origin: string): object {
  const params = message.params ?? {};
  switch (message.method) {
    case 'server/discover':
      return {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        ttlMs: 0,
        cacheScope: 'public',
        _meta: SAFE_META,
      };
    case 'tools/list': {
      const page = pages(origin).find((p) => p.cursor === params.cursor)!;
      return {
        resultType: 'complete',
        tools: page.tools,
        ttlMs: 0,
        cacheScope: 'public',
        ...(page.next !== undefined ? { nextCursor: page.next } : {}),
      };
    }
    case 'tools/call':
      return callResult(params);
    default:
      return { resultType: 'complete' };
  }
}

function callResult(params: Json): object {
  switch (params.name) {
    case 'ask':
      return askResult(params);
    case 'ask_stateless':
      return params.inputResponses === undefined
        ? { resultType: 'input_required', inputRequests: { where: { method: 'roots/list', params: {} } } }
        : { resultType: 'complete', content: [] };
    case 'typed':
      return { resultType: 'complete', content: [], structuredContent: { n: 'not an integer' } };
    case 'no_result_type':
      return { content: [] };
    case 'task_result':
      return { resultType: 'task', content: [] };
    default:
      return { resultType: 'complete', content: [], structuredContent: { n: 1 } };
  }
}

/** Round 1 asks through a form and roots/list; round 2 only re-asks with a new state; round 3 completes. */
function askResult(params: Json): object {
  if (params.requestState === undefined) {
    return {
      resultType: 'input_required',
      inputRequests: {
        form: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Tell me',
            requestedSchema: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                colour: { type: 'string', default: 'blue' },
                size: { type: 'string', enum: ['s', 'm'] },
                age: { type: 'integer' },
                ok: { type: 'boolean' },
              },
            },
          },
        },
        where: { method: 'roots/list', params: {} },
      },
      requestState: 'state-1 ',
    };
  }
  if (params.requestState === 'state-1 ') return { resultType: 'input_required', requestState: 'state-2' };
  return { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };
}
