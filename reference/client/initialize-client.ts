import { isObject } from '../../src/core/jsonrpc.js';
import { compareRevisions, type Revision } from '../../src/core/revision.js';
import { CLIENT_INFO, MAX_LIST_PAGES } from './constants.js';
import type { Defects } from './defects/active.js';
import type { InitializeModeRules } from './defects/seams/calls.js';
import { Fatal } from './fatal.js';
import { warn } from './log.js';
import {
  InitializeHttp,
  InitializeStdio,
  SessionGone,
  type InitializeConnection,
  type ServerRequestHandler,
} from './initialize-connection.js';
import { errorLine, printLine, printListed, type CallLine } from './output-line.js';
import { validateStructuredContent } from './output-validation.js';

type Message = Record<string, unknown>;

/**
 * The reference client's initialize mode (`--protocol-version <rev>`, one of the initialize revisions): initialize,
 * then notifications/initialized, every page of tools/list, every tool called once with a progress token, server
 * requests answered (form elicitation with the schema's defaults, roots with an empty list), the listing once more;
 * after a 404 on its session it starts a new one and sends the request again.
 */
export async function runInitializeClient(
  target: { url?: string; command?: string },
  revision: Revision,
  defects: Defects,
): Promise<void> {
  const client = new InitializeClient(revision, defects);
  const conn: InitializeConnection = target.url
    ? new InitializeHttp(target.url, client.answer)
    : new InitializeStdio(target.command!, client.answer);
  client.conn = conn;
  try {
    await client.run();
  } finally {
    await conn.close();
  }
}

class InitializeClient {
  conn!: InitializeConnection;
  private nextId = 0;
  private nextToken = 0;
  private answeredServer = 0;
  /** The methods of the requests sent so far. */
  private readonly methodsSent = new Set<string>();
  private readonly rules: InitializeModeRules = { reinitializesAfter404: true };

  constructor(
    private readonly revision: Revision,
    private readonly defects: Defects,
  ) {
    defects.at.initializeModeRules(this.rules);
  }

  async run(): Promise<void> {
    const aside = this.defects.at.requestBeforeInitialize();
    if (aside) await this.conn.request(this.message(aside.method, aside.params)).catch(() => undefined);
    await this.initialize();
    const tools = await this.listAll();
    for (const tool of tools) printLine(await this.call(tool));
    // The listing once more (the contract's optional last step): its failure ends nothing.
    await this.listAll().catch((error: unknown) =>
      warn(`the second listing failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  private message(method: string, params: Message): Message {
    const first = !this.methodsSent.has(method);
    this.methodsSent.add(method);
    const id = ++this.nextId;
    return { jsonrpc: '2.0', id: this.defects.at.initializeModeId(method, id, first) ?? id, method, params };
  }

  private async initialize(): Promise<void> {
    this.conn.session = undefined;
    const elicitation = compareRevisions(this.revision, '2025-11-25') >= 0 ? { form: {} } : {};
    const capabilities = { roots: {}, ...(compareRevisions(this.revision, '2025-06-18') >= 0 ? { elicitation } : {}) };
    const answer = await this.conn.request(
      this.message('initialize', { protocolVersion: this.revision, capabilities, clientInfo: CLIENT_INFO }),
    );
    const result = isObject(answer.result) ? answer.result : undefined;
    if (!result) throw new Fatal(`initialize failed: ${JSON.stringify(answer.error ?? answer).slice(0, 200)}`);
    if (compareRevisions(this.revision, '2025-06-18') >= 0) this.conn.protocolVersion = String(result.protocolVersion);
    this.defects.at.initializedConnection(this.conn);
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    for (const message of this.defects.at.initializedNotification(initialized) ?? [initialized])
      await this.conn.send(message);
  }

  /** A request in the session; after a 404 a new session (initialize) and the request once more. */
  private async request(method: string, params: Message): Promise<Message> {
    try {
      return await this.conn.request(this.message(method, params));
    } catch (error) {
      if (!(error instanceof SessionGone)) throw error;
      if (this.rules.reinitializesAfter404) await this.initialize();
      return this.conn.request(this.message(method, params));
    }
  }

  private async listAll(): Promise<Message[]> {
    const tools: Message[] = [];
    let cursor: unknown;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const answer = await this.request('tools/list', cursor === undefined ? {} : { cursor });
      const result = isObject(answer.result) ? answer.result : undefined;
      if (!result || !Array.isArray(result.tools))
        throw new Fatal(`tools/list failed: ${JSON.stringify(answer.error ?? answer).slice(0, 200)}`);
      tools.push(...result.tools.filter(isObject));
      cursor = result.nextCursor;
      if (typeof cursor !== 'string') break;
    }
    printListed(tools.length);
    return tools;
  }

  private async call(tool: Message): Promise<CallLine> {
    const name = String(tool.name);
    const example =
      isObject(tool.inputSchema) && Array.isArray(tool.inputSchema.examples) ? tool.inputSchema.examples[0] : undefined;
    const args = isObject(example) ? example : {};
    let answer: Message;
    try {
      answer = await this.request('tools/call', {
        name,
        arguments: args,
        _meta: { progressToken: `progress-${++this.nextToken}` },
      });
    } catch (error) {
      return errorLine(name, error instanceof Error ? error.message : String(error));
    }
    if (isObject(answer.error)) return errorLine(name, String(answer.error.message), answer.error.code);
    const result = isObject(answer.result) ? answer.result : {};
    if (tool.outputSchema !== undefined && result.isError !== true) {
      const checked = validateStructuredContent(tool.outputSchema, result.structuredContent);
      if (!checked.ok) return errorLine(name, checked.message);
    }
    return { tool: name, result };
  }

  /** What the server asks in the middle of a call (only what initialize declared). */
  readonly answer: ServerRequestHandler = async (request) => {
    const first = this.answeredServer++ === 0;
    const before = this.defects.at.serverRequestReceived(request.id, first);
    if (before) await this.conn.send(before);
    const params = isObject(request.params) ? request.params : {};
    const reply = await this.reply(request.method, params);
    return this.defects.at.serverRequestReply(reply, request.id, first) ?? reply;
  };

  private async reply(
    method: unknown,
    params: Message,
  ): Promise<{ result: unknown } | { error: { code: number; message: string } }> {
    switch (method) {
      case 'elicitation/create': {
        const properties =
          isObject(params.requestedSchema) && isObject(params.requestedSchema.properties)
            ? params.requestedSchema.properties
            : {};
        const content = Object.fromEntries(
          Object.entries(properties).flatMap(([key, value]) =>
            isObject(value) && 'default' in value ? [[key, value.default]] : [],
          ),
        );
        return { result: { action: 'accept', content } };
      }
      case 'roots/list':
        return { result: { roots: [] } };
      case 'ping':
        return { result: {} };
      default:
        return { error: { code: -32601, message: `method not found: ${String(method)}` } };
    }
  }
}
