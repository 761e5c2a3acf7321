import { META_CLIENT_INFO } from '../../../src/core/meta-keys.js';
import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/request-meta.ts catch, each breaking one of them. */
export const REQUEST_META_DEFECTS = {
  'no-capabilities-on-pages': {
    check: 'tools.req.meta-required',
    description: 'tools/list requests after the first page omit io.modelcontextprotocol/clientCapabilities from _meta',
    at: {
      metaOptions: (options, method, page) => {
        if (method === 'tools/list' && page !== undefined && page > 0) options.withCapabilities = false;
      },
    },
  },
  'no-client-info': {
    check: 'meta.req.clientinfo',
    description: 'never sends io.modelcontextprotocol/clientInfo',
    at: {
      metaOptions: (options) => {
        options.withClientInfo = false;
      },
      callMeta: (meta) => {
        delete meta[META_CLIENT_INFO];
      },
    },
  },
} as const satisfies Record<string, Defect>;
