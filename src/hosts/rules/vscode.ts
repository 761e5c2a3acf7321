import type { ValidateFunction } from 'ajv';
import { newAjv } from '../../schema/ajv-factory.js';
import { replacedCharacters } from '../name-rules.js';
import type { HostProfile } from '../types.js';

/**
 * VS Code's MCP support (Copilot Chat's tools). Every rule is read in its open-source code: McpServer._normalizeTool
 * and McpTool in src/vs/workbench/contrib/mcp/common/mcpServer.ts, the McpToolName limits in mcpTypes.ts.
 */
const READ = '2026-12-07';
const MCP_SERVER =
  'https://github.com/microsoft/vscode/blob/0052d689f910e056718b44fdecc7a5e1ad2c3b66/src/vs/workbench/contrib/mcp/common/mcpServer.ts';
const MCP_TYPES =
  'https://github.com/microsoft/vscode/blob/c7ab649915a6af28c5874ad8dd7cc4dcc7c06859/src/vs/workbench/contrib/mcp/common/mcpTypes.ts';

const NAME_CHARACTERS = 'A-Za-z0-9_-';
const ID_MAX = 64;
const PREFIX_MAX = 18;

/**
 * VS Code's tool id prefix, at most McpToolName.MaxPrefixLen characters. Its form, `mcp_` + the server's label + `_`,
 * is an assumption: the code that builds it was not found at a commit of microsoft/vscode we could cite.
 */
export function vscodePrefixLength(server: string): number {
  return Math.min(PREFIX_MAX, `mcp_${server}_`.length);
}

let draft07: ValidateFunction | undefined;
/** The draft-07 meta-schema, which VS Code validates every inputSchema against (whatever its `$schema` says). */
function draft07Meta(): ValidateFunction {
  draft07 ??= newAjv('draft-07', { strict: false, allErrors: true, validateSchema: false }).getSchema(
    'http://json-schema.org/draft-07/schema',
  )!;
  return draft07;
}

export const VSCODE: HostProfile = {
  host: 'vscode',
  label: 'VS Code (Copilot Chat MCP tools)',
  rules: [
    {
      id: 'host.vscode.name-characters',
      host: 'vscode',
      effect: 'degraded',
      title: 'tool name characters outside [a-z0-9_-], replaced by VS Code',
      sources: [
        {
          url: MCP_SERVER,
          kind: 'code',
          quote: "Tools names may only contain [a-z0-9_-]`); tool.name = tool.name.replace(toolInvalidCharRe, '_');",
          read: READ,
        },
      ],
      check: replacedCharacters('VS Code', NAME_CHARACTERS),
    },
    {
      id: 'host.vscode.name-length',
      host: 'vscode',
      effect: 'degraded',
      title: `prefixed tool id longer than ${ID_MAX} characters, cut by VS Code`,
      sources: [
        {
          url: MCP_SERVER,
          kind: 'code',
          quote: "this.id = (idPrefix + _definition.name).replaceAll('.', '_').slice(0, McpToolName.MaxLength);",
          read: READ,
        },
        {
          url: MCP_TYPES,
          kind: 'code',
          quote: "export const enum McpToolName { Prefix = 'mcp_', MaxPrefixLen = 18, MaxLength = 64, }",
          read: READ,
        },
      ],
      check(tool, { serverName }) {
        const prefix = vscodePrefixLength(serverName);
        if (prefix + tool.name.length <= ID_MAX) return [];
        return [
          {
            message:
              `with its prefix of ${prefix} characters the id has ${prefix + tool.name.length}; VS Code ` +
              `keeps the first ${ID_MAX}, so two long names can collide`,
            fix: `shorten \`${tool.name}\` to ${ID_MAX - prefix} characters or fewer`,
          },
        ];
      },
    },
    {
      id: 'host.vscode.schema-invalid',
      host: 'vscode',
      effect: 'blocked',
      title: 'inputSchema invalid under the draft-07 meta-schema: the tool is omitted',
      sources: [
        {
          url: MCP_SERVER,
          kind: 'code',
          quote: "const schemaUri = URI.parse('https://json-schema.org/draft-07/schema');",
          read: READ,
        },
        { url: MCP_SERVER, kind: 'code', quote: 'tools have invalid JSON schemas and will be omitted', read: READ },
      ],
      check(tool) {
        // VS Code adds an empty `properties` first; draft-07 itself does not require it.
        const validate = draft07Meta();
        if (validate(tool.inputSchema)) return [];
        const errors = (validate.errors ?? [])
          .slice(0, 3)
          .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
        return [
          {
            message: `VS Code omits the tool: the schema is not valid draft-07 (${errors.join('; ')})`,
            fix: `make inputSchema valid draft-07: ${errors.join('; ')}`,
          },
        ];
      },
    },
    {
      id: 'host.vscode.description-missing',
      host: 'vscode',
      effect: 'degraded',
      title: 'no description: VS Code sends "<empty>"',
      sources: [
        {
          url: MCP_SERVER,
          kind: 'code',
          quote:
            'does not have a description. Tools must be accurately described to be called`); tool.description ' +
            "= '<empty>';",
          read: READ,
        },
      ],
      check(tool) {
        if (tool.description) return [];
        return [
          {
            message: 'VS Code sends the description "<empty>": the model has nothing to choose the tool by',
            fix: 'add a description',
          },
        ];
      },
    },
  ],
  notSourced: ['a maximum number of tools per chat request (not found in the code read)', 'a description length limit'],
};
