import { refusedCharacters, renamed, rootNotObject, shown, utf8Length } from '../name-rules.js';
import type { HostProfile, RuleSource } from '../types.js';

/**
 * Claude Code, sending each MCP tool to the Claude API as `mcp__<server>__<tool>`. The name pattern is the API's (the
 * tool definition reference); the prefix and the description cap are Claude Code's own changelog's. What Claude Code
 * itself does with a name the API refuses (drop, rename or fail the request) is not documented: `blocked` here means
 * the API refuses the name as given.
 */
const READ = '2026-12-07';

const API_NAME: RuleSource = {
  url: 'https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools',
  kind: 'documentation',
  quote: 'The name of the tool. Must match the regex ^[a-zA-Z0-9_-]{1,128}$.',
  read: READ,
};

const PREFIX: RuleSource = {
  url: 'https://github.com/anthropics/claude-code/blob/5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357/CHANGELOG.md',
  kind: 'changelog',
  quote: 'Added wildcard syntax `mcp__server__*` for MCP tool permissions to allow or deny all tools from a server',
  read: READ,
};

const NAME_CHARACTERS = 'A-Za-z0-9_-';
const NAME_MAX = 128;
const DESCRIPTION_MAX_BYTES = 2048;

/**
 * The name Claude Code gives the tool; only its length is judged against the server's part (its own characters are the
 * user's choice).
 */
export function claudeName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

export const CLAUDE: HostProfile = {
  host: 'claude',
  label: 'Claude Code (Claude API tool names)',
  rules: [
    {
      id: 'host.claude.name-pattern',
      host: 'claude',
      effect: 'blocked',
      title: 'tool name characters outside [a-zA-Z0-9_-]',
      sources: [API_NAME],
      check(tool) {
        const refused = refusedCharacters(tool.name, NAME_CHARACTERS);
        if (refused.length === 0) return [];
        return [
          {
            message: `the Claude API refuses the name: ${shown(refused)} is outside [a-zA-Z0-9_-]`,
            fix: `rename \`${tool.name}\` → \`${renamed(tool.name, NAME_CHARACTERS)}\``,
          },
        ];
      },
    },
    {
      id: 'host.claude.name-length',
      host: 'claude',
      effect: 'blocked',
      title: `mcp__<server>__<tool> longer than ${NAME_MAX} characters`,
      sources: [API_NAME, PREFIX],
      check(tool, { serverName }) {
        const full = claudeName(serverName, tool.name);
        if (full.length <= NAME_MAX) return [];
        const room = NAME_MAX - claudeName(serverName, '').length;
        return [
          {
            message: `\`${full}\` has ${full.length} characters; the Claude API takes ${NAME_MAX}`,
            fix: `shorten \`${tool.name}\` to ${room} characters or fewer (or the server's name in the host's config)`,
          },
        ];
      },
    },
    {
      id: 'host.claude.input-schema-object',
      host: 'claude',
      effect: 'blocked',
      title: 'inputSchema whose root type is not "object"',
      sources: [
        {
          url: 'https://github.com/anthropics/anthropic-sdk-typescript/blob/bfa9197f0182084941052be9752c948638421601/src/resources/messages/messages.ts',
          kind: 'code',
          quote: "export interface InputSchema { type: 'object';",
          read: READ,
        },
      ],
      check: rootNotObject('the Claude API takes an input_schema of type "object"; this one\'s type is'),
    },
    {
      id: 'host.claude.description-length',
      host: 'claude',
      effect: 'degraded',
      title: `description over 2KB (read as ${DESCRIPTION_MAX_BYTES} bytes of UTF-8), cut by Claude Code`,
      sources: [
        {
          url: 'https://github.com/anthropics/claude-code/blob/5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357/CHANGELOG.md',
          kind: 'changelog',
          quote:
            'MCP tool descriptions and server instructions are now capped at 2KB to prevent OpenAPI-generated ' +
            'servers from bloating context',
          read: READ,
        },
      ],
      check(tool) {
        const bytes = utf8Length(tool.description ?? '');
        if (bytes <= DESCRIPTION_MAX_BYTES) return [];
        return [
          {
            message: `the description has ${bytes} bytes; Claude Code keeps 2KB`,
            fix: `shorten the description to ${DESCRIPTION_MAX_BYTES} bytes or fewer (now ${bytes})`,
          },
        ];
      },
    },
  ],
  notSourced: [
    'strict tool use (its JSON Schema subset): Claude Code is not documented to send MCP tools with `strict`',
    'a maximum number of tools',
  ],
};
