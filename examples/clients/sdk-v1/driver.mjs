#!/usr/bin/env node
// Client-mode driver for the v1 TypeScript SDK client: @modelcontextprotocol/sdk 1.32.2.
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
// - Exit 0 once the list was walked (even if calls failed); non-zero only when it could not connect or list.
//
// SDK specifics: 1.32.2 speaks the 2025 wire only. connect() always opens with `initialize` (protocolVersion
// 2025-11-25, falling back to nothing), so against a 2026-07-28-only server it fails to connect (exit 1).
// listTools() fetches one page, so the driver follows `nextCursor` itself; input requests arrive as
// server->client JSON-RPC requests (elicitation/create, roots/list), answered by the handlers below.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

// stdout is reserved for result lines.
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

const client = new Client(
  { name: 'mcp-tools-conformance-driver-sdk-v1', version: '1.32.2' },
  { capabilities: { elicitation: { form: {} }, roots: {} } },
);
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  const params = request.params ?? {};
  if ((params.mode ?? 'form') !== 'form') return { action: 'decline' };
  return { action: 'accept', content: defaultsOf(params.requestedSchema) };
});
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [] }));
client.onerror = (error) => console.error(`[driver] client error: ${error?.message ?? error}`);

/** Every page: "" is a valid cursor, only an absent nextCursor ends the list. */
async function listAll() {
  const all = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    all.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  emit({ listed: all.length });
  return all;
}

let tools;
try {
  await client.connect(makeTransport());
  console.error(`[driver] connected: server ${JSON.stringify(client.getServerVersion())}`);
  tools = await listAll();
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
      result: await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS }),
    });
  } catch (error) {
    emit(errorLine(tool.name, error));
  }
}

// The listing once more, as the contract's optional last step (it lets caching be judged).
await listAll().catch((error) => console.error(`[driver] the second listing failed: ${error?.message ?? error}`));

await client.close().catch(() => {});
process.exit(0);
