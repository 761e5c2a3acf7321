import type { OutgoingMessage } from '../messages.js';
import { isInitializeRevision } from '../revisions.js';
import { defineDefects } from './define.js';

/** legacy-sampling-unnegotiated's request: a client that declared no sampling is asked to sample. */
const SAMPLING_REQUEST: OutgoingMessage = {
  jsonrpc: '2.0',
  id: 'srv-sampling-1',
  method: 'sampling/createMessage',
  params: {
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the weather tools in one line.' } }],
    maxTokens: 100,
  },
};

/** Defects that the checks of suites/discovery/ catch, each breaking one of them. */
export const DISCOVERY_DEFECTS = defineDefects([
  {
    name: 'no-discover',
    breaks: 'discover.must-implement',
    description: 'server/discover answers -32601 (HTTP 404)',
    at: {
      messageRules: (rules) => {
        rules.discoverServed = false;
      },
    },
  },
  {
    name: 'supported-versions-omits-served',
    breaks: 'discover.supported-versions',
    description: 'DiscoverResult.supportedVersions is ["2025-11-25"] although the server serves 2026-07-28',
    at: {
      discoverResult: (result) => {
        result.supportedVersions = ['2025-11-25'];
      },
    },
  },
  {
    name: 'no-server-info',
    breaks: 'discover.serverinfo',
    description: 'DiscoverResult without _meta serverInfo (other results keep it)',
    at: {
      discoverResult: (result) => {
        delete result._meta;
      },
    },
  },
  {
    name: 'no-tools-capability',
    breaks: 'tools.cap.declare',
    description: 'discover capabilities is {} while tools/list still works',
    at: { serverCapabilities: () => ({}) },
  },
  {
    name: 'list-changed-not-boolean',
    breaks: 'tools.cap.list-changed-type',
    description: 'capabilities.tools.listChanged is the string "yes"',
    at: {
      serverCapabilities: (capabilities) => {
        capabilities.tools = { listChanged: 'yes' };
      },
    },
  },
  {
    name: 'legacy-sampling-unnegotiated',
    breaks: 'lifecycle.capabilities.negotiated',
    description:
      'before answering the first tools/list, sends sampling/createMessage to a client that declared no ' +
      'sampling in initialize, and waits for its answer',
    transports: ['stdio'],
    revision: '2025-11-25',
    at: { requestBeforeListing: (scope) => (scope === 'session' ? SAMPLING_REQUEST : undefined) },
  },
  {
    name: 'version-negotiation-echo',
    breaks: 'lifecycle.version-negotiation',
    description:
      'an initialize offering a protocol version no revision has (e.g. "2000-01-01") is answered with that ' +
      'same version instead of one the server supports',
    revision: '2024-11-05',
    at: {
      sessionResult: (method, result, params) => {
        const offered = params.protocolVersion;
        if (method === 'initialize' && typeof offered === 'string' && !isInitializeRevision(offered))
          result.protocolVersion = offered;
      },
    },
  },
]);
