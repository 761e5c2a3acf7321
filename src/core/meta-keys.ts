/**
 * The `_meta` keys of the protocol's own fields (basic/index § _meta), one home for the auditor and both reference
 * programs.
 */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
