import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/base-protocol.ts catch, each breaking one of them. */
export const BASE_PROTOCOL_DEFECTS = {
  'no-jsonrpc-member': { check: 'base.jsonrpc', description: 'tools/list requests omit the "jsonrpc": "2.0" member' },
  'bad-meta-key': {
    check: 'meta.client.key-format',
    description: 'every request carries the _meta key "x_vendor/trace" (a prefix label with an underscore)',
  },
  'bad-traceparent': {
    check: 'meta.otel.format',
    description: 'every request carries _meta traceparent "trace-1" (not W3C Trace Context)',
  },
  'discover-with-params': {
    check: 'discover.no-params',
    description: 'server/discover carries params.protocolVersion besides _meta',
  },
} as const satisfies Record<string, Defect>;
