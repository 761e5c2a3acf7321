import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  errorOf,
  type Exchange,
  INITIALIZE_REVISIONS,
  INITIALIZE_CLIENT_CAPABILITIES,
  type McpClient,
  type Outcome,
  pending,
  resultOf,
  TargetGoneError,
  REVISIONS,
} from '../kit/index.js';
import { fail, pass, skip } from '../kit/outcome.js';
import { onRevisions } from '../kit/same-sentences.js';

/** A protocol version no revision has: a date before MCP, in the revisions' own format. */
export const UNKNOWN_VERSION = '2000-01-01';

const NEGOTIATION = 'basic/lifecycle#version-negotiation';

/**
 * The initialize request offering the unknown version, with the capabilities and client info the audit's own handshake
 * declares.
 */
function unknownVersionInitialize(client: McpClient, id: number | string): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: UNKNOWN_VERSION,
      capabilities: { ...INITIALIZE_CLIENT_CAPABILITIES },
      clientInfo: { ...client.clientInfo },
    },
  };
}

/**
 * The answer to an initialize offering UNKNOWN_VERSION, sent alone on a connection of its own (over stdio another
 * process of the target, over Streamable HTTP a session of its own), which is closed once it has answered. Over the
 * deprecated HTTP+SSE transport the connection first opens its event stream, as the audit's own did.
 */
async function answerToUnknownVersion(ctx: CheckContext): Promise<Exchange | string> {
  let client: McpClient | undefined;
  try {
    client = await ctx.anotherConnection({ negotiate: false });
    if (ctx.transportKind === 'http+sse') {
      const found = await client.transport.fallBackToHttpSse?.();
      if (!found?.found)
        return (
          `the separate connection found no HTTP+SSE stream (` + `${found?.why ?? 'the transport cannot look for one'})`
        );
    }
    const id = client.newId();
    return await client.raw(unknownVersionInitialize(client, id), id, {});
  } catch (error) {
    if (error instanceof TargetGoneError) return error.exchange;
    return (
      `could not open a separate connection for the initialize (` +
      `${error instanceof Error ? error.message : String(error)})`
    );
  } finally {
    await client?.transport.close();
  }
}

/** The verdict on the answer to an initialize that offered UNKNOWN_VERSION. */
export function judgeUnknownVersionAnswer(exchange: Exchange): Outcome {
  const result = resultOf(exchange.response);
  if (!result) {
    const error = errorOf(exchange.response);
    if (error) {
      // The page's own Error Handling example answers an unsupported version with an error (-32602, data.supported).
      return skip(
        `the server answered the initialize offering ${UNKNOWN_VERSION} with error ${String(error.code)} (` +
          `${String(error.message).slice(0, 120)}) instead of a counter-offer; the page's Error Handling example ` +
          `answers a protocol version mismatch so, and the sentence's counter-offer is not judged here`,
      );
    }
    return skip(
      `the initialize offering ${UNKNOWN_VERSION} got no answer to judge (` +
        `${exchange.failure?.message ?? 'neither result nor error'})`,
    );
  }
  const agreed = result.protocolVersion;
  if (typeof agreed !== 'string') {
    return skip(
      `the InitializeResult carries no protocolVersion string (${JSON.stringify(agreed) ?? 'absent'}), which ` +
        `schema.result.valid judges`,
    );
  }
  if (agreed === UNKNOWN_VERSION) {
    return fail(
      `the initialize offering ${UNKNOWN_VERSION}, a protocol version no MCP revision has, was answered with ` +
        `protocolVersion "${UNKNOWN_VERSION}": the server echoed a version it cannot support`,
      `another protocol version the server supports (e.g. "${INITIALIZE_REVISIONS[0]}"), since no server ` +
        `supports ${UNKNOWN_VERSION}`,
      [exchange],
    );
  }
  const known = (REVISIONS as readonly string[]).includes(agreed)
    ? `, a revision of MCP`
    : ', a version this tool does not know (whether the server supports it cannot be judged from outside)';
  return pass(
    `the initialize offering ${UNKNOWN_VERSION} was answered with protocolVersion "${agreed.slice(0, 60)}"${known}`,
    [exchange],
  );
}

/**
 * lifecycle.version-negotiation: no server supports a version that no revision has, so an initialize offering one must
 * get another version back. The branch "supports the requested version → the same version" cannot be judged from
 * outside (what a server supports is its own choice), except that the audit's own handshake got a version it knows.
 */
export const versionNegotiation: CheckDefinition = defineCheck({
  id: 'lifecycle.version-negotiation',
  title:
    'An initialize offering a protocol version no revision has is answered with another version, never with ' +
    'the one offered',
  area: 'discovery',
  sentences: onRevisions(INITIALIZE_REVISIONS, {
    ref: NEGOTIATION,
    text:
      'If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, ' +
      'the server MUST respond with another protocol version it supports.',
    keyword: 'MUST',
  }),
  needs: ['live'],
  run(ctx) {
    if (!ctx.canOpenConnections)
      return [
        skip(
          'cannot open a separate connection to this target, and a second initialize is not sent on the audited one',
        ),
      ];
    // On a connection of its own (over stdio, a process still starting): the phases go on meanwhile.
    return pending(
      answerToUnknownVersion(ctx).then((answer) => [
        typeof answer === 'string' ? { status: 'error', message: answer } : judgeUnknownVersionAnswer(answer),
      ]),
    );
  },
});

export const VERSION_NEGOTIATION_CHECKS = [versionNegotiation] as const;
