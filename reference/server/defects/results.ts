import { defineDefects } from './define.js';

/** The audio-content-on-2024-11-05 defect's block: an 8-sample WAV chime. */
const CHIME_WAV_BASE64 = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAABYqFioWKhYqA==';

/** Defects that the checks of suites/results/ catch, each breaking one of them. */
export const RESULTS_DEFECTS = defineDefects([
  {
    name: 'supported-versions-missing',
    breaks: 'schema.result.valid',
    description: 'DiscoverResult without supportedVersions',
    at: {
      discoverResult: (result) => {
        delete result.supportedVersions;
      },
    },
  },
  {
    name: 'no-server-info-on-list',
    breaks: 'meta.res.serverinfo',
    description: 'tools/list results without _meta serverInfo (discover keeps it)',
    at: {
      toolsListResult: (result) => {
        delete result._meta;
      },
    },
  },
  {
    name: 'no-result-type',
    breaks: 'base.res.resulttype',
    description: 'the 2nd tools/list page has no resultType',
    at: {
      toolsListResult: (result, page) => {
        if (page.index === 1) delete result.resultType;
      },
    },
  },
  {
    name: 'unknown-result-type',
    breaks: 'base.resulttype.set',
    description: 'the discover result has resultType "ok"',
    at: {
      discoverResult: (result) => {
        result.resultType = 'ok';
      },
    },
  },
  {
    name: 'audio-content-on-2024-11-05',
    breaks: 'schema.result.valid',
    description:
      "get_logo's result ends with an audio block, a content type that arrived with 2025-03-26 (a 2024-11-05 " +
      'CallToolResult holds text, image and resource blocks); 2024-11-05 tools have no annotations, so the ' +
      'audit runs with --allow-tools get_logo',
    transports: ['stdio'],
    auditArgs: ['--allow-tools', 'get_logo'],
    revision: '2024-11-05',
    at: {
      toolResult: (name, result) => {
        if (name !== 'get_logo' || !Array.isArray(result.content)) return;
        return {
          ...result,
          content: [...result.content, { type: 'audio', data: CHIME_WAV_BASE64, mimeType: 'audio/wav' }],
        };
      },
    },
  },
  {
    name: 'bad-instructions',
    breaks: 'schema.result.valid',
    description: 'the discover result has instructions: 42 (a number)',
    at: {
      discoverResult: (result) => {
        result.instructions = 42;
      },
    },
  },
  {
    name: 'task-result-unnegotiated',
    breaks: 'base.resulttype.set',
    description:
      'advertises the io.modelcontextprotocol/tasks extension and answers get_time with resultType "task" to a ' +
      'client that declared no extension',
    transports: ['stdio'],
    at: {
      serverCapabilities: (capabilities) => {
        capabilities.extensions = { 'io.modelcontextprotocol/tasks': {} };
      },
      toolResult: (name, result) => {
        if (name !== 'get_time' || result.isError === true) return;
        return {
          resultType: 'task',
          task: { taskId: 'task-1', status: 'working', createdAt: new Date(0).toISOString() },
        };
      },
    },
  },
]);
