import type { McpClient } from '../protocol/client.js';
import type { Negotiation } from '../protocol/negotiate.js';
import { walkTools, type ToolWalk } from '../protocol/tool-walk.js';
import { isObject } from '../jsonrpc.js';
import type { Exchange, Transport } from '../transport/types.js';
import type { Wire } from './types.js';
import { ResultSchemaCache } from './result-schemas.js';

export interface RunOptions {
  timeoutMs: number;
  maxPages?: number;
}

/**
 * What a check sees: the protocol client (never the transport), shared cached walks,
 * and everything recorded so far. Expensive things are computed once and shared by all checks.
 */
export class CheckContext {
  readonly schemas = new ResultSchemaCache();
  private discoverPromise: Promise<Exchange> | undefined;
  private walkPromise: Promise<ToolWalk> | undefined;

  constructor(
    readonly client: McpClient,
    readonly transport: Transport,
    readonly negotiation: Negotiation,
    readonly options: RunOptions,
  ) {
    if (negotiation.discover) this.discoverPromise = Promise.resolve(negotiation.discover);
  }

  get wire(): Wire {
    return this.negotiation.wire;
  }

  get transportKind(): Transport['kind'] {
    return this.transport.kind;
  }

  /** The `server/discover` exchange (the probe's, when there was one). Modern wire only. */
  discover(): Promise<Exchange> {
    this.discoverPromise ??= this.client.request('server/discover');
    return this.discoverPromise;
  }

  /** The complete `tools/list` walk, shared by every check. */
  tools(): Promise<ToolWalk> {
    this.walkPromise ??= walkTools(this.client, this.options.maxPages).then((walk) => {
      for (const tool of walk.tools) {
        if (typeof tool.name === 'string' && isObject(tool.inputSchema)) this.client.inputSchemas.set(tool.name, tool.inputSchema);
      }
      return walk;
    });
    return this.walkPromise;
  }

  /** The capabilities the server declared: DiscoverResult.capabilities, or InitializeResult.capabilities on the legacy wire. */
  async capabilities(): Promise<{ capabilities: Record<string, unknown> | undefined; exchange: Exchange }> {
    const exchange = this.wire === '2026-07-28' ? await this.discover() : this.negotiation.initialize!;
    const result = isObject(exchange.response) && isObject(exchange.response.result) ? exchange.response.result : undefined;
    const capabilities = result && isObject(result.capabilities) ? result.capabilities : undefined;
    return { capabilities, exchange };
  }

  /** Every exchange recorded so far, in wire order. */
  exchanges(): readonly Exchange[] {
    return this.client.exchanges;
  }
}
