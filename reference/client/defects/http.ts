import { OTHER_PROTOCOL_VERSION } from '../constants.js';
import type { Defect } from './define.js';

/** Defects that the client checks of suites/client/http.ts catch, each breaking one of them. */
export const HTTP_DEFECTS = {
  'json-batch': {
    check: 'http.client.single-message',
    only: 'http',
    description: 'sends server/discover as a JSON array [request]',
    at: {
      discoverSending: (sending, kind) => {
        const encode = sending.wire;
        if (kind === 'http') sending.wire = (message) => encode([message]);
      },
    },
  },
  'no-sse-support': {
    check: 'http.client.both-content-types',
    only: 'http',
    description: 'an answer sent as text/event-stream is taken as a failure (only application/json is read)',
    at: {
      transportRules: (rules) => {
        rules.refusesSse = true;
      },
    },
  },
  'accept-json-only': {
    check: 'http.client.accept',
    only: 'http',
    description: 'sends Accept: application/json only',
    at: {
      httpHeaders: (headers) => {
        headers.Accept = 'application/json';
      },
    },
  },
  'no-protocol-version-header': {
    check: 'http.pv.header',
    only: 'http',
    description: 'omits MCP-Protocol-Version on tools/list requests',
    at: {
      httpHeaders: (headers, method) => {
        if (method === 'tools/list') delete headers['MCP-Protocol-Version'];
      },
    },
  },
  'protocol-version-header-mismatch': {
    check: 'http.pv.match',
    only: 'http',
    description: 'sends MCP-Protocol-Version: 2025-11-25 on tools/call (the body says 2026-07-28)',
    at: {
      httpHeaders: (headers, method) => {
        if (method === 'tools/call') headers['MCP-Protocol-Version'] = OTHER_PROTOCOL_VERSION;
      },
    },
  },
  'no-mcp-method-header': {
    check: 'http.std.required',
    only: 'http',
    description: 'omits Mcp-Method on tools/list requests',
    at: {
      httpHeaders: (headers, method) => {
        if (method === 'tools/list') delete headers['Mcp-Method'];
      },
    },
  },
  'discover-with-put': {
    only: 'http',
    check: 'http.client.post',
    description: 'sends server/discover with HTTP PUT instead of POST',
    at: {
      discoverSending: (sending) => {
        sending.httpMethod = 'PUT';
      },
    },
  },
  'mcp-name-percent-encoded': {
    only: 'http',
    check: 'http.std.mcp-name-base64',
    description: 'a tool name that needs Base64 goes into Mcp-Name percent-encoded instead',
    at: {
      httpHeaders: (headers, _method, toolName) => {
        const encoded = headers['Mcp-Name'];
        if (typeof toolName === 'string' && encoded !== undefined && encoded !== toolName)
          headers['Mcp-Name'] = encodeURIComponent(toolName);
      },
    },
  },
  'resumes-cut-stream': {
    only: 'http',
    check: 'http.sse.no-resume',
    description:
      'an SSE answer that ends before its response, after events with ids, is resumed with GET and ' +
      'Last-Event-ID (as 2025-11-25 allowed)',
    at: {
      transportRules: (rules) => {
        rules.resumesCutStreams = true;
      },
    },
  },
} as const satisfies Record<string, Defect>;
