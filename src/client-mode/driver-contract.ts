/**
 * The environment of the driver contract (README "Audit your client"): over HTTP the endpoint URL (also the driver's
 * last argument), over stdio the command line that starts the scripted server.
 */
export const ENV_URL = 'MCP_CONFORMANCE_URL';
export const ENV_SERVER_COMMAND = 'MCP_CONFORMANCE_SERVER_COMMAND';
/**
 * The longest a driver may let a call wait for its answer, in milliseconds (also in MCP_CONFORMANCE_CALL_TIMEOUT_MS).
 */
export const ENV_CALL_TIMEOUT = 'MCP_CONFORMANCE_CALL_TIMEOUT_MS';
export const CALL_TIMEOUT_MS = 2_000;
