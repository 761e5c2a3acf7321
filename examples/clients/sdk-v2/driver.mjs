#!/usr/bin/env node
// Client-mode driver for the official TypeScript SDK v2 client:
//   @modelcontextprotocol/client 2.4.0 (with @modelcontextprotocol/core 2.4.0).
//
// Driver contract (same for every driver):
// - Transport: Streamable HTTP when MCP_CONFORMANCE_URL is set (the same URL is also the last argument);
//   stdio when MCP_CONFORMANCE_SERVER_COMMAND is set (a shell command line, run as `sh -c <value>`).
// - Connect; list tools, all pages; call every listed tool once, in listing order, with
//   `tool.inputSchema.examples[0]` when that is an object, else `{}`.
// - Answer input requests: form elicitation -> {action: "accept", content: <the requested schema's property
//   defaults>}; roots -> an empty list. Declares the elicitation (form) and roots capabilities.
// - Give every call a timeout of MCP_CONFORMANCE_CALL_TIMEOUT_MS milliseconds at most (a call that gets no answer
//   by then is given up and printed as an error).
// - Print ONE JSON line per call on stdout: {"tool": name, "result": <as the SDK returned it>} or
//   {"tool": name, "error": {"message": ..., "code": <number if any>}}. Nothing else goes to stdout.
// - Then list the tools again, as a user of the library would (the library may serve its cache), and print
//   {"listed": <count>} after each of the two listings (optional in the contract; it lets caching be judged).
// - Exit 0 once the list was walked (even if calls failed); non-zero only when it could not connect or list.
//
// SDK specifics: the v2 client speaks 2026-07-28 only when asked to (the default is the 2025 `initialize`
// handshake); `versionNegotiation: { mode: { pin: '2026-07-28' } }` makes connect() probe with
// `server/discover` and fail rather than fall back. `listTools()` without a cursor walks every page itself
// (it loops while `nextCursor !== undefined`, so "" does not end the list) and caches the aggregate, which
// callTool() needs for `Mcp-Param-*` header mirroring and outputSchema validation. `input_required` results
// are fulfilled inside callTool() through the handlers registered with setRequestHandler(). The SDK's request
// timeout (60 s by default) is set per request to the contract's MCP_CONFORMANCE_CALL_TIMEOUT_MS; on timeout the
// SDK gives the request up (over stdio it sends notifications/cancelled, over HTTP it aborts the stream).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

// The SDK logs with console.debug/console.info in places (stdout in Node); stdout is reserved for result lines.
for (const level of ['log', 'info', 'debug']) console[level] = (...args) => console.error(...args);
const emit = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const CALL_TIMEOUT_MS = Number(process.env.MCP_CONFORMANCE_CALL_TIMEOUT_MS) || 5_000;

function makeTransport() {
  const url = process.env.MCP_CONFORMANCE_URL;
  if (url) return new StreamableHTTPClientTransport(new URL(url));
  const command = process.env.MCP_CONFORMANCE_SERVER_COMMAND;
  if (command)
    return new StdioClientTransport({
      command: 'sh',
      args: ['-c', command],
      env: { ...process.env },
      stderr: 'inherit',
    });
  throw new Error('set MCP_CONFORMANCE_URL or MCP_CONFORMANCE_SERVER_COMMAND');
}

/** Form content made of the requested schema's property defaults. */
function defaultsOf(requestedSchema) {
  const content = {};
  for (const [name, property] of Object.entries(requestedSchema?.properties ?? {})) {
    if (property && typeof property === 'object' && 'default' in property) content[name] = property.default;
  }
  return content;
}

function errorLine(tool, error) {
  const line = { tool, error: { message: error instanceof Error ? error.message : String(error) } };
  if (typeof error?.code === 'number') line.error.code = error.code;
  return line;
}

// MCP_CONFORMANCE_PROTOCOL_VERSION (optional) names the revision the client is to speak: a 2025 one makes the SDK use
// its legacy mode (the initialize handshake, which offers its newest 2025 revision, 2025-11-25).
const LEGACY = /^2025-|^2024-/.test(process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '');

const client = new Client(
  { name: 'mcp-tools-conformance-driver-sdk-v2', version: '2.4.0' },
  {
    capabilities: { elicitation: { form: {} }, roots: {} },
    versionNegotiation: { mode: LEGACY ? 'legacy' : { pin: '2026-07-28' } },
    // Opens a subscriptions/listen stream when the server can change its tool list, and re-lists on a change.
    listChanged: {
      tools: {
        onChanged: (error) => error && console.error(`[driver] re-listing after a change failed: ${error.message}`),
      },
    },
  },
);
client.setRequestHandler('elicitation/create', async (request) => {
  const params = request.params ?? {};
  if ((params.mode ?? 'form') !== 'form') return { action: 'decline' };
  return { action: 'accept', content: defaultsOf(params.requestedSchema) };
});
client.setRequestHandler('roots/list', async () => ({ roots: [] }));
client.onerror = (error) => console.error(`[driver] client error: ${error?.message ?? error}`);

let tools;
try {
  await client.connect(makeTransport());
  console.error(`[driver] connected: protocol ${client.getNegotiatedProtocolVersion()} (${client.getProtocolEra()})`);
  ({ tools } = await client.listTools());
  emit({ listed: tools.length });
} catch (error) {
  console.error(`[driver] could not connect or list tools: ${error?.stack ?? error}`);
  await client.close().catch(() => {});
  process.exit(1);
}

for (const tool of tools) {
  const example = tool.inputSchema?.examples?.[0];
  const args = example && typeof example === 'object' && !Array.isArray(example) ? example : {};
  try {
    emit({
      tool: tool.name,
      result: await client.callTool({ name: tool.name, arguments: args }, { timeout: CALL_TIMEOUT_MS }),
    });
  } catch (error) {
    emit(errorLine(tool.name, error));
  }
}

try {
  emit({ listed: (await client.listTools()).tools.length });
} catch (error) {
  console.error(`[driver] the second listing failed: ${error?.message ?? error}`);
}

await client.close().catch(() => {});
process.exit(0);
