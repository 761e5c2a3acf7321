import { isObject } from '../../../src/core/jsonrpc.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../../../src/core/meta-keys.js';
import { ErrorCode, PROTOCOL_VERSION } from '../constants.js';
import { methodNotFound } from '../protocol-error.js';
import { defineDefects } from './define.js';

/**
 * meta-not-required: `params` with a missing or mistyped protocolVersion / clientCapabilities replaced by
 * "2026-07-28" / {} (missing `params` or `_meta` included), so that the server reads them as valid.
 */
function fillMissingMeta(params: unknown): Record<string, unknown> {
  const filled = isObject(params) ? params : {};
  const meta = isObject(filled._meta) ? filled._meta : {};
  const protocolVersion = meta[META_PROTOCOL_VERSION];
  const clientCapabilities = meta[META_CLIENT_CAPABILITIES];
  return {
    ...filled,
    _meta: {
      ...meta,
      [META_PROTOCOL_VERSION]: typeof protocolVersion === 'string' ? protocolVersion : PROTOCOL_VERSION,
      [META_CLIENT_CAPABILITIES]: isObject(clientCapabilities) ? clientCapabilities : {},
    },
  };
}

/** Defects that the checks of suites/request-meta/ catch, each breaking one of them. */
export const REQUEST_META_DEFECTS = defineDefects([
  {
    name: 'bad-traceparent',
    breaks: 'meta.otel.format',
    description: 'tools/list results carry _meta.traceparent "00-trace-1-01" (not W3C Trace Context)',
    transports: ['stdio'],
    at: {
      toolsListResult: (result) => {
        result._meta = { ...(result._meta as object), traceparent: '00-trace-1-01' };
      },
    },
  },
  {
    name: 'initialize-error-unnamed',
    breaks: 'version.initialize-error-names-versions',
    description: 'initialize is answered "Method not found: initialize", naming no supported version',
    transports: ['stdio'],
    at: { initializeRefusal: () => methodNotFound('Method not found: initialize') },
  },
  {
    name: 'meta-not-required',
    breaks: 'meta.req.missing-32602',
    description:
      'a missing or mistyped _meta protocolVersion / clientCapabilities is taken as "2026-07-28" / {} instead ' +
      'of -32602',
    at: { paramsForMeta: fillMissingMeta },
  },
  {
    name: 'meta-missing-200',
    breaks: 'meta.req.missing-http-400',
    description: 'the -32602 for a missing or invalid _meta comes with HTTP 200',
    transports: ['http'],
    at: { errorStatus: (code) => (code === ErrorCode.InvalidParams ? 200 : undefined) },
  },
  {
    name: 'version-not-checked',
    breaks: 'version.unsupported-32022',
    description: 'serves any protocolVersion string instead of -32022',
    at: {
      messageRules: (rules) => {
        rules.versionChecked = false;
      },
    },
  },
  {
    name: 'version-error-200',
    breaks: 'http.pv.unsupported',
    description: 'the -32022 error comes with HTTP 200',
    transports: ['http'],
    at: { errorStatus: (code) => (code === ErrorCode.UnsupportedProtocolVersion ? 200 : undefined) },
  },
  {
    name: 'meta-key-empty-label',
    breaks: 'meta.key.prefix',
    description: 'the first tool definition has _meta {"com..example/priority": "high"} (an empty prefix label)',
    at: {
      listedTools: (tools) => {
        tools[0]!._meta = { 'com..example/priority': 'high' };
      },
    },
  },
  {
    name: 'meta-key-bad-label',
    breaks: 'meta.key.labels',
    description: 'echo results carry a text block with _meta {"com.example-/source": "echo"} (a label ending in "-")',
    at: {
      toolResult: (name, result) => {
        if (name !== 'echo' || !Array.isArray(result.content)) return;
        return {
          ...result,
          content: result.content.map((block: unknown) =>
            isObject(block) ? { ...block, _meta: { 'com.example-/source': 'echo' } } : block,
          ),
        };
      },
    },
  },
  {
    name: 'meta-key-bad-name',
    breaks: 'meta.key.name',
    description: 'the discover result _meta gains the key "com.example/_trace" (a name starting with "_")',
    at: {
      discoverResult: (result) => {
        result._meta = { ...(result._meta as object), 'com.example/_trace': 'discover-1' };
      },
    },
  },
  {
    name: 'extension-id-unprefixed',
    breaks: 'version.ext.id-format',
    description: 'discover capabilities advertise extensions {"tasks": {}} (no prefix)',
    at: {
      serverCapabilities: (capabilities) => {
        capabilities.extensions = { tasks: {} };
      },
    },
  },
]);
