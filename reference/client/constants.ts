import { LATEST_INITIALIZE_REVISION, LATEST_REVISION } from '../../src/core/revision.js';

export const PROTOCOL_VERSION = LATEST_REVISION;
/** What the `protocol-version-header-mismatch` defect puts in the header instead. */
export const OTHER_PROTOCOL_VERSION = LATEST_INITIALIZE_REVISION;

export const CLIENT_INFO = { name: 'mcp-tools-conformance-reference-client', version: '0.1.0' } as const;

export function clientCapabilities(): Record<string, unknown> {
  return { elicitation: { form: {} }, roots: {} };
}

export const REQUEST_TIMEOUT_MS = 10_000;
/** Retries after the first `input_required` result, at most. */
export const MAX_MRTR_RETRIES = 10;
/** A listing that has not ended after this many pages is given up. */
export const MAX_LIST_PAGES = 10_000;

export const ENV_URL = 'MCP_CONFORMANCE_URL';
export const ENV_SERVER_COMMAND = 'MCP_CONFORMANCE_SERVER_COMMAND';
/** The call timeout of the driver contract, in milliseconds: every request gives up after it (10 s without it). */
export const ENV_CALL_TIMEOUT = 'MCP_CONFORMANCE_CALL_TIMEOUT_MS';

export function callTimeoutMs(): number {
  const given = Number(process.env[ENV_CALL_TIMEOUT]);
  return Number.isInteger(given) && given > 0 ? given : REQUEST_TIMEOUT_MS;
}
