import { canonicalJson } from '../core/canonical-json.js';
import { isObject } from '../core/jsonrpc.js';
import { ERR } from '../protocol/constants.js';
import {
  compareRevisions,
  isInitializeRevision,
  isRevision,
  LATEST_INITIALIZE_REVISION,
  type Revision,
} from '../core/revision.js';
import { APPEARED_AFTER_CHANGE, PAGE_TWO_CURSOR, STDERR_LOG_LINE, TOOL, TOOL_SPECS } from './scenarios.js';
import { ECHO_DELAY_MS, type Answer, type ScriptedSetup } from './scripted-server.js';
import { CHANGE_SETTLE_MS } from './tool-set-change.js';

/** The tool of the earlier revisions that asks the client in the middle of its call (their input requests). */
export const ASK_CLIENT_TOOL = 'ask_client';

/**
 * The scripted tools that mean the same on the initialize wire. The others rest on 2026-07-28 alone (resultType,
 * ttlMs, MRTR, x-mcp-header, Mcp-Name, SSE without resumption, the renumbered error codes, and the `$ref` rules of
 * its JSON Schema page: earlier pages say nothing of dereferencing, so the ref tools would only trip clients up).
 */
const KEPT: ReadonlySet<string> = new Set([
  TOOL.echo,
  TOOL.sseEcho,
  TOOL.pageTwo,
  TOOL.pageThree,
  TOOL.structuredMismatch,
]);
/** Tools that only mean something where tools have an outputSchema (2025-06-18 on). */
const NEEDS_OUTPUT_SCHEMA: ReadonlySet<string> = new Set([TOOL.structuredMismatch]);

const ASK_CLIENT = {
  name: ASK_CLIENT_TOOL,
  description:
    'Asks the client in the middle of the call: elicitation, roots and sampling, as far as it declared them.',
  inputSchema: { type: 'object', properties: {}, examples: [{}] },
  annotations: { readOnlyHint: true },
};

/** How long a server-to-client request waits for its answer before the call goes on without it. */
export const CLIENT_ANSWER_TIMEOUT_MS = 2_000;

/** Where a session's messages that belong to no request go: the GET stream over HTTP, stdout over stdio. */
export type Sink = (message: Record<string, unknown>) => void;

/** One initialize conversation: an HTTP session, or one stdio server process. */
export class InitializeSession {
  revision: Revision = LATEST_INITIALIZE_REVISION;
  capabilities: Record<string, unknown> = {};
  /** The answer waited for, per id of a request the server sent. */
  readonly pending = new Map<string, (reply: Record<string, unknown>) => void>();
  /** The session's standalone stream (HTTP GET; stdout over stdio), when open. */
  standalone?: Sink;
  /** The last listed tool was answered: the next request finds the session gone (HTTP 404). */
  expiring = false;
  private nextId = 0;

  constructor(readonly id: string) {}

  /** Sends a request to the client on `out` and waits for its answer (undefined when none came in time). */
  ask(out: Sink, method: string, params: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const id = `scripted-${++this.nextId}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(canonicalJson(id));
        resolve(undefined);
      }, CLIENT_ANSWER_TIMEOUT_MS);
      this.pending.set(canonicalJson(id), (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      out({ jsonrpc: '2.0', id, method, params });
    });
  }
}

/**
 * The scripted server of the initialize wire (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05): it answers
 * `initialize` with the revision the client offered (an unknown one with the newest), then lists and calls the
 * scenarios' tools that mean the same there, asks the client mid-call for what it declared, reports progress when
 * asked, and announces one change of the tool set (listen scenario). Like the 2026-07-28 one it answers requests that
 * break a rule all the same.
 */
export class InitializeScriptedServer {
  private changed = false;

  constructor(private readonly setup: ScriptedSetup) {}

  /** The tools listed on `revision`, by page (the first page always exists). */
  pages(revision: Revision): Record<string, unknown>[][] {
    const chosen = TOOL_SPECS.filter((s) => this.setup.scenarios.includes(s.scenario)).map((s) => ({
      page: s.page ?? 1,
      tool: s.definition({ canaryOrigin: this.setup.canaryOrigin }),
    }));
    const kept = chosen.filter(
      ({ tool }) =>
        KEPT.has(String(tool.name)) &&
        (compareRevisions(revision, '2025-06-18') >= 0 || !NEEDS_OUTPUT_SCHEMA.has(String(tool.name))),
    );
    if (this.setup.scenarios.includes('mrtr'))
      kept.splice(kept.filter((t) => t.page === 1).length, 0, { page: 1, tool: ASK_CLIENT });
    const shaped = kept.map((t) => ({ page: t.page, tool: forRevision(t.tool, revision) }));
    return [1, 2, 3]
      .map((p) => shaped.filter((t) => t.page === p).map((t) => t.tool))
      .filter((p, i) => i === 0 || p.length > 0);
  }

  /** Every tool listed on `revision`. */
  tools(revision: Revision): Record<string, unknown>[] {
    return this.pages(revision).flat();
  }

  /**
   * A message of `session`. `out` carries what goes to the client before the answer (over HTTP on the request's own
   * SSE stream). Answers from the client to the server's requests resolve them and get no answer.
   */
  async handle(session: InitializeSession, message: unknown, out: Sink): Promise<Answer> {
    if (Array.isArray(message)) {
      const answers = (await Promise.all(message.map((m) => this.handle(session, m, out)))).filter(
        (a) => a.body !== undefined,
      );
      return answers.length === 0 ? { status: 202 } : { status: 200, body: answers.map((a) => a.body) };
    }
    if (!isObject(message)) return { status: 202 };
    if (typeof message.method !== 'string') {
      if ('id' in message) session.pending.get(canonicalJson(message.id))?.(message);
      return { status: 202 };
    }
    if (!('id' in message)) return { status: 202 };
    const id = message.id;
    const params = isObject(message.params) ? message.params : {};
    const result = (value: unknown): Answer => ({ status: 200, body: { jsonrpc: '2.0', id, result: value } });
    switch (message.method) {
      case 'initialize':
        return result(this.initialize(session, params));
      case 'ping':
        return result({});
      case 'tools/list':
        return result(this.page(session.revision, params.cursor));
      case 'tools/call':
        return this.call(session, id, params, out);
      default:
        return {
          status: 200,
          body: {
            jsonrpc: '2.0',
            id,
            error: { code: ERR.methodNotFound, message: `method not found: ${message.method}` },
          },
        };
    }
  }

  /** basic/lifecycle § Version Negotiation: the offered revision when this server speaks it, else its newest. */
  private initialize(session: InitializeSession, params: Record<string, unknown>): Record<string, unknown> {
    const offered = params.protocolVersion;
    session.revision = isRevision(offered) && isInitializeRevision(offered) ? offered : LATEST_INITIALIZE_REVISION;
    session.capabilities = isObject(params.capabilities) ? params.capabilities : {};
    return {
      protocolVersion: session.revision,
      capabilities: { tools: { listChanged: this.setup.scenarios.includes('listen') } },
      serverInfo: { name: 'mcp-tools-conformance-scripted-server', version: this.setup.version },
    };
  }

  /** The same three pages as on 2026-07-28 (an unknown cursor gets the second, so that a mangled one goes on). */
  private page(revision: Revision, cursor: unknown): Record<string, unknown> {
    const pages = this.pages(revision);
    const index = cursor === undefined ? 0 : cursor === '' ? 2 : 1;
    const page = Math.min(index, pages.length - 1);
    const next = page + 1 < pages.length ? (page === 0 ? PAGE_TWO_CURSOR : '') : undefined;
    const tools =
      page === 0 && this.changed ? [...pages[0]!, forRevision(APPEARED_AFTER_CHANGE, revision)] : pages[page];
    return { tools, ...(next === undefined ? {} : { nextCursor: next }) };
  }

  private async call(
    session: InitializeSession,
    id: unknown,
    params: Record<string, unknown>,
    out: Sink,
  ): Promise<Answer> {
    const name = params.name;
    const revision = session.revision;
    const listed = [...this.tools(revision), ...(this.changed ? [APPEARED_AFTER_CHANGE] : [])];
    const answer = (value: Record<string, unknown>): Answer => ({
      status: 200,
      body: { jsonrpc: '2.0', id, result: value },
    });
    if (typeof name !== 'string' || !listed.some((t) => t.name === name)) {
      return {
        status: 200,
        body: { jsonrpc: '2.0', id, error: { code: ERR.invalidParams, message: `unknown tool: ${String(name)}` } },
      };
    }
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    if (typeof token === 'string' || typeof token === 'number')
      out({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 2 },
      });
    const last = name === this.pages(revision).at(-1)?.at(-1)?.name;
    let delayMs = 0;
    if (last && this.setup.scenarios.includes('listen') && !this.changed) {
      this.changed = true;
      (session.standalone ?? out)({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      delayMs = CHANGE_SETTLE_MS;
    }
    if (last && this.setup.scenarios.includes('http')) session.expiring = true;
    const text = (value: string, extra: Record<string, unknown> = {}) => ({
      content: [{ type: 'text', text: value }],
      ...extra,
    });
    switch (name) {
      case TOOL.echo:
        return {
          ...answer(text(`echo: ${JSON.stringify(params.arguments ?? {})}`)),
          delayMs: ECHO_DELAY_MS,
          stderr: STDERR_LOG_LINE,
        };
      case TOOL.sseEcho:
        return { ...answer(text(`echo: ${JSON.stringify(params.arguments ?? {})}`)), sse: true };
      case ASK_CLIENT_TOOL:
        return answer(text(await this.askClient(session, out)));
      case TOOL.structuredMismatch:
        return answer(text('{"temperature":"warm"}', { structuredContent: { temperature: 'warm' } }));
      default:
        return {
          ...answer(text(`called ${name} with ${JSON.stringify(params.arguments ?? {})}`)),
          ...(delayMs ? { delayMs } : {}),
        };
    }
  }

  /** The input requests of the initialize wire, each only through a capability the client declared in `initialize`. */
  private async askClient(session: InitializeSession, out: Sink): Promise<string> {
    const told: string[] = [];
    const declared = (name: string) => isObject(session.capabilities[name]);
    if (declared('elicitation') && compareRevisions(session.revision, '2025-06-18') >= 0) {
      const reply = await session.ask(out, 'elicitation/create', {
        message: 'Proceed with ask_client?',
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', default: true } },
          required: ['confirm'],
        },
      });
      told.push(`elicitation: ${reply ? 'answered' : 'no answer'}`);
    }
    if (declared('roots')) told.push(`roots: ${(await session.ask(out, 'roots/list', {})) ? 'answered' : 'no answer'}`);
    if (declared('sampling')) {
      const reply = await session.ask(out, 'sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: 'Say yes.' } }],
        maxTokens: 5,
      });
      told.push(`sampling: ${reply ? 'answered' : 'no answer'}`);
    }
    return told.length === 0
      ? 'no input request: the client declared neither elicitation, roots nor sampling'
      : told.join('; ');
  }
}

/** A tool as `revision` defines it: no outputSchema before 2025-06-18, no annotations before 2025-03-26. */
function forRevision(tool: Record<string, unknown>, revision: Revision): Record<string, unknown> {
  const { outputSchema, annotations, ...rest } = tool;
  return {
    ...rest,
    ...(outputSchema !== undefined && compareRevisions(revision, '2025-06-18') >= 0 ? { outputSchema } : {}),
    ...(annotations !== undefined && compareRevisions(revision, '2025-03-26') >= 0 ? { annotations } : {}),
  };
}
