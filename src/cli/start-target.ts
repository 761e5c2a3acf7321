import { CallTurns } from '../protocol/call-turns.js';
import { McpClient } from '../protocol/client.js';
import { negotiate, negotiateRevision, type Negotiation } from '../protocol/negotiate.js';
import type { Revision } from '../core/revision.js';
import type { RequestGate } from '../transport/request-gate.js';
import type { CliOptions } from './args.js';
import type { AuditSandbox } from './audit-sandbox.js';
import { ToolPages } from '../protocol/tool-pages.js';
import { createTarget, type Target } from './target.js';

/** The audited connection, opened as early as possible. */
export interface StartedTarget {
  target: Target;
  client: McpClient;
  gate: RequestGate;
  /** The transport started and the wire negotiated (a snapshot's recorded negotiation replayed); rejects as they do. */
  negotiation: Promise<Negotiation>;
  /** --sandbox: the audit's sandbox, in which every process of the target starts. */
  sandbox?: AuditSandbox;
}

/**
 * Starts the target and its negotiation now; the caller awaits `negotiation` (and handles its failure) later. With
 * `revision` (--revisions) exactly that revision is offered, and the negotiation rejects when the target does not take
 * it.
 */
export async function startTarget(
  options: CliOptions,
  version: string,
  gate: RequestGate,
  revision?: Revision,
  sandbox?: AuditSandbox,
): Promise<StartedTarget> {
  const target = await createTarget(options, gate, sandbox?.launch);
  const turns = sandbox?.turns ?? new CallTurns({ maxShared: options.concurrency });
  const client = new McpClient(target.transport, { name: 'mcp-tools-conformance', version }, new ToolPages(), turns);
  const negotiation = target.transport.start().then(async () => {
    if (revision) return negotiateRevision(client, revision);
    if (!target.snapshot) return negotiate(client, options.protocolVersion);
    const { replayNegotiation } = await import('../snapshot/capture.js');
    return replayNegotiation(client, target.snapshot, target.description.file!);
  });
  negotiation.catch(() => undefined);
  return { target, client, gate, negotiation, ...(sandbox ? { sandbox } : {}) };
}
