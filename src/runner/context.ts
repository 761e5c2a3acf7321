import { McpClient } from '../protocol/client.js';
import { negotiate } from '../protocol/negotiate.js';
import type { Negotiation } from '../protocol/negotiate.js';
import { walkTools, type ToolWalk } from '../protocol/tool-walk.js';
import { isObject } from '../core/jsonrpc.js';
import type { Transport } from '../transport/types.js';
import type { Exchange, StrayEvent } from '../model/exchange.js';
import type { EffectsLog } from '../model/effects.js';
import { LATEST_REVISION, type Revision } from '../core/revision.js';
import type { PropertyOptions } from '../property/options.js';
import { ResultSchemaCache } from './result-schemas.js';
import { CANCEL_WATCH_MS, readMarkerMethod, type SentCancellation } from './cancellation.js';
import { TargetGoneError } from '../protocol/errors.js';

export interface RunOptions {
  timeoutMs: number;
  /** Calls to different tools a scripted check may have in flight at once (--concurrency); 1 when absent. */
  concurrency?: number;
  /** Tools that may be called besides read-only ones ('all': any). */
  allowTools?: readonly string[] | 'all';
  /** Never called (--skip-tools), whatever allowTools or the annotations say. */
  skipTools?: readonly string[];
  /** A tool whose call changes the tool set (--list-changed-trigger); calling it is the user's explicit permission. */
  listChangedTrigger?: { name: string; arguments: Record<string, unknown> };
  /** Opens another, independent connection to the same target (a new process for stdio, a new pool for HTTP). */
  openTransport?: () => Promise<Transport>;
  /** Settings of the property-based checks (seed, runs, replay); defaults apply when absent. */
  property?: PropertyOptions;
  /** Absolute deadline of the run (ms since epoch), for checks that search until stopped. */
  deadline?: number;
  /** --sandbox: every tools/call runs alone and what it changed is recorded here. */
  effects?: EffectsLog;
}

/**
 * What a check sees: the protocol client (never the transport), shared cached walks,
 * and everything recorded so far. Expensive things are computed once and shared by all checks.
 */
export class CheckContext {
  readonly schemas = new ResultSchemaCache();
  private discoverPromise: Promise<Exchange> | undefined;
  private walkPromise: Promise<ToolWalk> | undefined;
  private readonly memos = new Map<string, Promise<unknown>>();
  private readonly timedOutCalls = new Map<string, Exchange>();
  private readonly sentCancellations: SentCancellation[] = [];
  private readonly extraClients: McpClient[] = [];
  /** Connections shared by the checks that name the same key, opened on first use (or by prepare, ahead of it). */
  private readonly shared = new Map<string, Promise<McpClient>>();
  private readonly closing: Promise<void>[] = [];

  constructor(
    readonly client: McpClient,
    private readonly transport: Transport,
    readonly negotiation: Negotiation,
    readonly options: RunOptions,
  ) {
    if (negotiation.discover) this.discoverPromise = Promise.resolve(negotiation.discover);
  }

  /** The revision agreed with the target, whose pages judge it. */
  get revision(): Revision {
    return this.negotiation.wire;
  }

  /** What each tools/call changed, in a sandboxed audit (--sandbox); undefined when effects are not recorded. */
  get effects(): EffectsLog | undefined {
    return this.options.effects;
  }

  get transportKind(): Transport['kind'] {
    return this.transport.kind;
  }

  /**
   * stdio and HTTP+SSE: everything the server sends arrives on one ordered channel, whichever request it belongs to, so
   * a request given up on is still live there, and what follows an answer may still belong to its request.
   */
  get oneChannel(): boolean {
    return this.transport.kind === 'stdio' || this.transport.kind === 'http+sse';
  }

  /** Everything the target sent that answered no request we were waiting for (notifications, late answers, noise). */
  strays(): readonly StrayEvent[] {
    return this.transport.strays();
  }

  /** The target's captured stderr (stdio), truncated. */
  targetStderr(): string {
    return this.transport.stderr();
  }

  /** HTTP only: the target URL's origin, e.g. to send the server its own Origin header. */
  get targetOrigin(): string | undefined {
    return this.transport.origin;
  }

  /** The `server/discover` exchange (the probe's, when there was one). The 2026-07-28 wire only. */
  discover(): Promise<Exchange> {
    this.discoverPromise ??= this.client.request('server/discover');
    return this.discoverPromise;
  }

  /** The complete `tools/list` walk, shared by every check. */
  tools(): Promise<ToolWalk> {
    this.walkPromise ??= walkTools(this.client).then((walk) => {
      this.client.learnTools(walk.tools);
      return walk;
    });
    return this.walkPromise;
  }

  /**
   * The capabilities the server declared: DiscoverResult.capabilities, or InitializeResult.capabilities on an
   * initialize revision.
   */
  async capabilities(): Promise<{ capabilities: Record<string, unknown> | undefined; exchange: Exchange }> {
    const exchange = this.revision === LATEST_REVISION ? await this.discover() : this.negotiation.initialize!;
    const result =
      isObject(exchange.response) && isObject(exchange.response.result) ? exchange.response.result : undefined;
    const capabilities = result && isObject(result.capabilities) ? result.capabilities : undefined;
    return { capabilities, exchange };
  }

  /**
   * Safety first: a tool is called only when its annotations say readOnlyHint: true or the user allowed it
   * (--allow-tools, --allow-all-tools). Annotations are untrusted hints, but they are the server's own claim.
   */
  mayCall(tool: Record<string, unknown>): boolean {
    if (typeof tool.name === 'string' && this.options.skipTools?.includes(tool.name)) return false;
    const allow = this.options.allowTools;
    if (allow === 'all') return true;
    if (typeof tool.name === 'string' && allow?.includes(tool.name)) return true;
    return isObject(tool.annotations) && tool.annotations.readOnlyHint === true;
  }

  /**
   * The listing lists at least one named tool and the safety options let none be called: a check that judges tool calls
   * then skips for want of a callable tool. False when the listing could not be walked.
   */
  async noCallableTool(): Promise<boolean> {
    const walk = await this.tools().catch(() => undefined);
    const named = walk?.tools.filter((tool) => typeof tool.name === 'string') ?? [];
    return named.length > 0 && !named.some((tool) => this.mayCall(tool));
  }

  /**
   * For the audit's depth, once the checks are done: the named tools listed (once each, in order) and those the safety
   * options kept from being called (not read-only, not allowed; --skip-tools is the user's own choice). Undefined when
   * no check walked the listing (nothing is sent for it now).
   */
  async toolAccess(): Promise<{ listed: string[]; notAllowed: string[] } | undefined> {
    if (!this.walkPromise) return undefined;
    const walk = await this.walkPromise.catch(() => undefined);
    if (!walk) return undefined;
    const listed = new Map<string, Record<string, unknown>>();
    for (const tool of walk.tools)
      if (typeof tool.name === 'string' && !listed.has(tool.name)) listed.set(tool.name, tool);
    const skipped = new Set(this.options.skipTools ?? []);
    return {
      listed: [...listed.keys()],
      notAllowed: [...listed].filter(([name, tool]) => !skipped.has(name) && !this.mayCall(tool)).map(([name]) => name),
    };
  }

  /** The shared tools/list walk, once the checks are done, when a check made it (nothing is sent for it now). */
  async listing(): Promise<ToolWalk | undefined> {
    return this.walkPromise?.catch(() => undefined);
  }

  /** Why no tool may be called, for skip messages. */
  get callPolicy(): string {
    const skipped = this.options.skipTools?.length
      ? `; left out with --skip-tools: ${this.options.skipTools.join(', ')}`
      : '';
    return (
      `by default only tools annotated readOnlyHint: true are called; widen with --allow-tools a,b or ` +
      `--allow-all-tools${skipped}`
    );
  }

  /** Why this tool is not called, for the tools that mayCall refuses. */
  notCalledReason(tool: Record<string, unknown>): string {
    return typeof tool.name === 'string' && this.options.skipTools?.includes(tool.name)
      ? 'left out with --skip-tools'
      : 'not read-only and not allowed';
  }

  /**
   * tools/call for the call checks: a call that outlives the timeout is a slow tool, not a dead target, so it is
   * cancelled (one channel: notifications/cancelled, with a read marker right behind it; Streamable HTTP: the request
   * was aborted) and returned with its failure. A target that exited still ends the audit.
   * Each call's answer is judged alone, so over Streamable HTTP it may take any connection of the pool
   * (`anyConnection: false` keeps it on the first, for a check about what that connection carried before).
   */
  async callTool(
    name: string,
    args: unknown,
    options: {
      capabilities?: Record<string, unknown>;
      anyConnection?: boolean;
      extraMeta?: Record<string, unknown>;
    } = {},
  ): Promise<Exchange> {
    const send = (alone?: true) =>
      this.client.request(
        'tools/call',
        { name, arguments: args },
        { probe: true, anyConnection: true, ...options, alone },
      );
    const exchange = await send();
    if (exchange.failure?.kind !== 'timeout') return exchange;
    await this.cancelTimedOut(exchange);
    // A timeout among other calls may be our own doing (our concurrency, a loaded machine): no verdict rests on it
    // before the call was retried alone with the full --timeout; what the retry gets is the answer.
    if (this.client.turns.overlapped(exchange) && !this.timedOutCalls.has(name)) {
      await this.client.turns.abandonedSettled();
      const retry = await send(true);
      if (retry.failure?.kind !== 'timeout') {
        this.client.turns.answeredAlone(name);
        return retry;
      }
      await this.cancelTimedOut(retry);
      this.timedOutCalls.set(name, retry);
      return retry;
    }
    if (!this.timedOutCalls.has(name)) this.timedOutCalls.set(name, exchange);
    return exchange;
  }

  /** Over one channel, a call that timed out is cancelled, with a read marker behind (stdio.cancel.server-silence). */
  private async cancelTimedOut(call: Exchange): Promise<void> {
    if (!this.oneChannel) return;
    const requestId = (call.request as { id?: unknown }).id;
    const notice = await this.client.notify('notifications/cancelled', {
      requestId,
      reason: 'mcp-tools-conformance: timed out',
    });
    this.sentCancellations.push({ call, notice, marker: this.sendReadMarker() });
  }

  /**
   * The read marker (cancellation.ts) behind a cancellation: callTool does not wait for it; stdio.cancel.server-silence
   * does.
   */
  private sendReadMarker(): Promise<Exchange | undefined> {
    return this.client
      .request(readMarkerMethod(this.revision), {}, { probe: true, timeoutMs: CANCEL_WATCH_MS })
      .catch((error: unknown) => (error instanceof TargetGoneError ? error.exchange : undefined));
  }

  /** The cancellations callTool sent (one channel), oldest first. */
  cancellations(): readonly SentCancellation[] {
    return this.sentCancellations;
  }

  /**
   * The first call of this tool that timed out, if one did: such a tool is not called again in the audit, so its
   * timeout is paid once, not once per check (the checks that would call it skip and point at this exchange).
   */
  timedOutCall(name: string): Exchange | undefined {
    return this.timedOutCalls.get(name);
  }

  /** Work shared by several checks (e.g. one set of probes judged by two requirements), done once. */
  memo<T>(key: string, work: () => Promise<T>): Promise<T> {
    let promise = this.memos.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = work();
      this.memos.set(key, promise);
    }
    return promise;
  }

  /**
   * Whether checks run alongside one another (--concurrency above 1): a check may then keep its quiet window on a
   * connection of its own and hand back a pending verdict. At --concurrency 1 everything runs in turn, in order.
   */
  get overlaps(): boolean {
    return (this.options.concurrency ?? 1) > 1;
  }

  get canOpenConnections(): boolean {
    return this.options.openTransport !== undefined;
  }

  /**
   * Starts opening the shared connection `key` now, for the checks that use it later: a new process takes a while
   * to start, and the wait then overlaps with other checks. Nothing is sent on it but the negotiation.
   */
  prepareConnection(key: string): void {
    if (this.canOpenConnections) void this.sharedConnection(key);
  }

  /**
   * An independent, negotiated connection opened once and shared by every check that names `key` (over stdio, one
   * more process of the target). Its users agree on what it is for: e.g. one that never calls a tool, and whose
   * stdin a last-phase check closes.
   */
  sharedConnection(key: string): Promise<McpClient> {
    let opening = this.shared.get(key);
    if (!opening) {
      opening = this.anotherConnection();
      // The checks that use it see the failure; an unused one is only closed.
      opening.catch(() => undefined);
      this.shared.set(key, opening);
    }
    return opening;
  }

  /**
   * Starts closing the shared connection `key` as soon as its last user is done with it (over stdio its process then
   * stops taking a core), instead of at the end of the run; closeExtras() waits for it.
   */
  closeSharedConnection(key: string): void {
    const opening = this.shared.get(key);
    if (opening) this.closing.push(opening.then((client) => client.transport.close()).catch(() => undefined));
  }

  /** A new, independent connection on the same wire, for the caller alone; closed by closeExtras(). */
  async anotherConnection(options: { negotiate?: boolean } = {}): Promise<McpClient> {
    if (!this.options.openTransport) throw new Error('no way to open another connection to this target');
    const transport = await this.options.openTransport();
    const client = new McpClient(transport, this.client.clientInfo, this.client.toolPages, this.client.turns);
    this.extraClients.push(client);
    await this.client.turns.outsideCalls(async () => {
      await transport.start();
      if (options.negotiate === false) client.wire = this.revision;
      else await negotiate(client, this.revision);
      // In a sandbox what a process writes as it starts must not be put down to the call after it: on 2026-07-28, whose
      // negotiation sends nothing, an answer to server/discover (side-effect free) shows it has started.
      if (this.client.turns.allAlone && options.negotiate !== false && this.revision === LATEST_REVISION)
        await client.request('server/discover', {}, { probe: true });
    });
    return client;
  }

  async closeExtras(): Promise<void> {
    await Promise.allSettled(this.shared.values());
    await Promise.all(this.closing);
    await Promise.all(this.extraClients.map((c) => c.transport.close()));
  }

  /** Every exchange recorded so far, in wire order. */
  exchanges(): readonly Exchange[] {
    return this.client.exchanges;
  }
}
