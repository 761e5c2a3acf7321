import { isObject } from '../../../src/core/jsonrpc.js';
import { PROTOCOL_VERSION } from '../constants.js';
import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/base-protocol.ts catch, each breaking one of them. */
export const BASE_PROTOCOL_DEFECTS = {
  'no-jsonrpc-member': {
    check: 'base.jsonrpc',
    description: 'tools/list requests omit the "jsonrpc": "2.0" member',
    at: {
      requestMessage: (message) => {
        if (message.method === 'tools/list') delete message.jsonrpc;
      },
    },
  },
  'bad-meta-key': {
    check: 'meta.client.key-format',
    description: 'every request carries the _meta key "x_vendor/trace" (a prefix label with an underscore)',
    at: {
      requestMessage: ({ params }) => {
        if (isObject(params._meta)) params._meta['x_vendor/trace'] = 'reference-client';
      },
    },
  },
  'bad-traceparent': {
    check: 'meta.otel.format',
    description: 'every request carries _meta traceparent "trace-1" (not W3C Trace Context)',
    at: {
      requestMessage: ({ params }) => {
        if (isObject(params._meta)) params._meta.traceparent = 'trace-1';
      },
    },
  },
  'discover-with-params': {
    check: 'discover.no-params',
    description: 'server/discover carries params.protocolVersion besides _meta',
    at: {
      discoverParams: (params) => {
        params.protocolVersion = PROTOCOL_VERSION;
      },
    },
  },
} as const satisfies Record<string, Defect>;
