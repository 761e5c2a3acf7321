import { renamed, replacedCharacters, rootNotObject } from '../name-rules.js';
import type { HostProfile, RuleSource } from '../types.js';

/**
 * Gemini CLI, sending MCP tools to the Gemini API as function declarations. Its MCP page states the renaming, which its
 * code (`generateValidName` in packages/core/src/tools/mcp-tool.ts) does: `mcp_<server>_<tool>`, other characters
 * replaced, a name over 63 characters cut in the middle. The object root is the Gemini API's (the Google Gen AI SDK's
 * doc comment of `parametersJsonSchema`, which Gemini CLI fills).
 */
const READ = '2026-12-07';
const MCP_PAGE =
  'https://github.com/google-gemini/gemini-cli/blob/5411f113cafae26161b4969b0237b8e1e024e2c2/docs/tools/mcp-server.md';

const FQN: RuleSource = {
  url: MCP_PAGE,
  kind: 'documentation',
  quote:
    'All MCP tools are unconditionally assigned a fully qualified name (FQN) using the format ' +
    '`mcp_{serverName}_{toolName}`.',
  read: READ,
};

const NAME_CHARACTERS = 'A-Za-z0-9_\\-.:';
const NAME_MAX = 63;

/** The name Gemini CLI registers, before a cut: `mcp_<server>_<tool>`, other characters replaced by `_`. */
export function geminiName(server: string, tool: string): string {
  return renamed(`mcp_${server}_${tool}`, NAME_CHARACTERS);
}

export const GEMINI: HostProfile = {
  host: 'gemini',
  label: 'Gemini CLI (Gemini API function declarations)',
  rules: [
    {
      id: 'host.gemini.name-characters',
      host: 'gemini',
      effect: 'degraded',
      title: 'tool name characters other than letters, digits, _, -, . and :, replaced by Gemini CLI',
      sources: [
        {
          url: MCP_PAGE,
          kind: 'documentation',
          quote:
            'Characters other than letters, numbers, underscore (`_`), hyphen (`-`), dot (`.`), and colon ' +
            '(`:`) are replaced with underscores',
          read: READ,
        },
      ],
      check: replacedCharacters('Gemini CLI', NAME_CHARACTERS),
    },
    {
      id: 'host.gemini.name-length',
      host: 'gemini',
      effect: 'degraded',
      title: `mcp_<server>_<tool> longer than ${NAME_MAX} characters, cut in the middle by Gemini CLI`,
      sources: [
        FQN,
        {
          url: MCP_PAGE,
          kind: 'documentation',
          quote: 'Names longer than 63 characters are truncated with middle replacement (`...`)',
          read: READ,
        },
      ],
      check(tool, { serverName }) {
        const full = geminiName(serverName, tool.name);
        if (full.length <= NAME_MAX) return [];
        const room = NAME_MAX - geminiName(serverName, '').length;
        return [
          {
            message:
              `\`${full}\` has ${full.length} characters; Gemini CLI cuts it to \`${full.slice(0, 30)}...` +
              `${full.slice(-30)}\``,
            fix: `shorten \`${tool.name}\` to ${room} characters or fewer (or the server's name in the host's config)`,
          },
        ];
      },
    },
    {
      id: 'host.gemini.input-schema-object',
      host: 'gemini',
      effect: 'blocked',
      title: 'inputSchema whose root type is not "object"',
      sources: [
        {
          url: 'https://github.com/googleapis/js-genai/blob/6e9b35c45e21f0d37179a24d29dca01ebed698e6/src/types.ts',
          kind: 'code',
          quote: 'The schema must describe an object where the properties are the parameters to the function.',
          read: READ,
        },
      ],
      check: rootNotObject("the Gemini API takes parameters that describe an object; this schema's type is"),
    },
  ],
  notSourced: [
    'removal of `$schema` and `additionalProperties` (the MCP page says so; the code at the same commit passes ' +
      'the schema as parametersJsonSchema unchanged)',
    "the Gemini API's OpenAPI-subset keywords (Gemini CLI sends parametersJsonSchema, not the OpenAPI Schema)",
    'a maximum number of tools',
    'a description length limit',
  ],
};
