import { isObject, resultOf } from '../../core/jsonrpc.js';
import type { ClientObservations, DriverLine, SeenMessage } from '../../model/client-observation.js';
import type { Exchange } from '../../model/exchange.js';
import type { Outcome } from '../../model/check.js';
import { INVALID_HEADER_TOOLS, type Scenario } from '../scenarios.js';
import type { CheckDefinition } from '../../runner/types.js';

/**
 * A client check: the same requirement fields as a server check, the scenario whose tools it needs, and a judgement
 * of what the scripted server saw (it runs after the client has exited, so it sends nothing).
 */
export interface ClientCheckDefinition extends Pick<
  CheckDefinition,
  'id' | 'keyword' | 'title' | 'specRef' | 'covers' | 'area' | 'sentences'
> {
  scenario: Scenario;
  /** The transport the rule binds (a Streamable HTTP header rule, a stdio stream rule); absent: both. */
  transport?: 'http' | 'stdio';
  run(ctx: ClientCheckContext): Outcome[];
}

/** A JSON-RPC request the client sent, with what carried it. */
export interface SeenRequest {
  seen: SeenMessage;
  id: unknown;
  method: string;
  params: Record<string, unknown>;
}

/** What client checks read: the observations, and the views of them several checks share. */
export class ClientCheckContext {
  /**
   * The JSON-RPC requests of the 2026-07-28 wire, in order of arrival. An `initialize` belongs to the earlier
   * handshake (a client probing for a server of an initialize revision, or one that speaks nothing newer): no rule
   * judged here binds it. A `notifications/…` message that carries an id is a broken notification (base.notif.no-id),
   * not a request.
   */
  readonly requests: SeenRequest[];

  constructor(readonly observed: ClientObservations) {
    this.requests = observed.messages
      .flatMap((seen) => requestsIn(seen))
      .filter((r) => r.method !== 'initialize' && !r.method.startsWith('notifications/'));
  }

  /** The params of the client's first `initialize` (the earlier revisions' handshake), when it sent one. */
  initializeParams(): Record<string, unknown> | undefined {
    for (const seen of this.observed.messages) {
      const found = requestsIn(seen).find((r) => r.method === 'initialize');
      if (found) return found.params;
    }
    return undefined;
  }

  /** The tools/call requests for `tool`, in order of arrival. */
  calls(tool: string): SeenRequest[] {
    return this.requests.filter((r) => r.method === 'tools/call' && r.params.name === tool);
  }

  /** The driver's line for `tool` (its first). */
  line(tool: string): DriverLine | undefined {
    return this.observed.driverLines.find((l) => l.tool === tool);
  }

  /** The names of the tools the client received: in any tools/list page the scripted server answered. */
  listedTools(): Set<string> {
    const names = new Set<string>();
    for (const r of this.requests) {
      const tools = r.method === 'tools/list' ? this.resultOf(r)?.tools : undefined;
      if (Array.isArray(tools)) for (const t of tools) if (isObject(t) && typeof t.name === 'string') names.add(t.name);
    }
    return names;
  }

  /**
   * The valid tools the client received in a listing and never sent a tools/call for, in listing order: it left them
   * out, refused them locally, or its driver did not call them (the contract calls every listed tool). Tools with
   * invalid x-mcp-header annotations are not among them (a client on HTTP must leave them out, and one on stdio may).
   */
  uncalledTools(): string[] {
    const listed = this.listedTools();
    const called = new Set(this.requests.filter((r) => r.method === 'tools/call').map((r) => r.params.name));
    return Object.keys(this.observed.offered).filter(
      (name) => listed.has(name) && !called.has(name) && !INVALID_HEADER_TOOLS.includes(name),
    );
  }

  /** The result body the scripted server sent for a request, when it was a result. */
  resultOf(request: SeenRequest): Record<string, unknown> | undefined {
    const body = request.seen.reply?.body;
    return resultOf(Array.isArray(body) ? body.find((b) => isObject(b) && b.id === request.id) : body);
  }
}

function requestsIn(seen: SeenMessage): SeenRequest[] {
  const messages = Array.isArray(seen.message) ? seen.message : [seen.message];
  return messages.flatMap((m) =>
    isObject(m) && typeof m.method === 'string' && 'id' in m
      ? [{ seen, id: m.id, method: m.method, params: isObject(m.params) ? m.params : {} }]
      : [],
  );
}

/** A seen message as evidence: what the client sent (with its HTTP headers) and what the scripted server answered. */
export function evidenceOf(seen: SeenMessage): Exchange {
  return {
    seq: seen.seq,
    sentAt: seen.at,
    durationMs: seen.answeredT === undefined ? 0 : Math.round((seen.answeredT - seen.t) * 10) / 10,
    request: seen.message ?? seen.raw,
    ...(seen.http ? { requestHeaders: seen.http.headers } : {}),
    ...(seen.reply?.body === undefined ? {} : { response: seen.reply.body }),
    ...(seen.reply?.status === undefined ? {} : { status: seen.reply.status }),
    notifications: [],
    ...(seen.invalidUtf8 ? { invalidUtf8: 1 } : {}),
  };
}
