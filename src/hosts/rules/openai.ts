import { refusedCharacters, renamed, shown } from '../name-rules.js';
import { placeOf, schemaNodes } from '../schema-nodes.js';
import { opensObject, strictRewrite } from '../strict-schema.js';
import type { HostProfile, RuleSource } from '../types.js';

/**
 * OpenAI function calling with `strict: true`, as the OpenAI Agents SDK sends MCP tools when asked to
 * (`convert_schemas_to_strict`): the function-name limit of the API reference (as the official Node SDK carries it) and
 * what the SDK's `ensure_strict_json_schema` rejects or rewrites. Both sources are code: the name rule is the doc
 * comment generated from the API reference; the schema rules are the SDK's statements and comments.
 */
const READ = '2026-12-07';

const FUNCTION_NAME: RuleSource = {
  url: 'https://github.com/openai/openai-node/blob/7b7d6ca71130d37ec09792c50056b47861f2eccf/src/resources/shared.ts',
  kind: 'code',
  quote:
    'The name of the function to be called. Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a ' +
    'maximum length of 64.',
  read: READ,
};

const STRICT_SCHEMA =
  'https://github.com/openai/openai-agents-python/blob/014750b8a296acb586d1f38fed888f9a38e97c06/src/agents/strict_schema.py';

const NAME_CHARACTERS = 'A-Za-z0-9_-';
const NAME_MAX = 64;

export const OPENAI: HostProfile = {
  host: 'openai',
  label: 'OpenAI function calling, strict mode (Agents SDK)',
  rules: [
    {
      id: 'host.openai.name-pattern',
      host: 'openai',
      effect: 'blocked',
      title: 'function name characters outside a-z, A-Z, 0-9, _ and -',
      sources: [FUNCTION_NAME],
      check(tool) {
        const refused = refusedCharacters(tool.name, NAME_CHARACTERS);
        if (refused.length === 0) return [];
        return [
          {
            message: `the OpenAI API refuses the function name: ${shown(refused)} is not a-z, A-Z, 0-9, _ or -`,
            fix: `rename \`${tool.name}\` → \`${renamed(tool.name, NAME_CHARACTERS)}\``,
          },
        ];
      },
    },
    {
      id: 'host.openai.name-length',
      host: 'openai',
      effect: 'blocked',
      title: `function name longer than ${NAME_MAX} characters`,
      sources: [FUNCTION_NAME],
      check(tool) {
        if (tool.name.length <= NAME_MAX) return [];
        return [
          {
            message: `the name has ${tool.name.length} characters; the OpenAI API takes ${NAME_MAX}`,
            fix: `shorten \`${tool.name}\` to ${NAME_MAX} characters or fewer`,
          },
        ];
      },
    },
    {
      id: 'host.openai.strict-open-object',
      host: 'openai',
      effect: 'blocked',
      title: 'an object that allows other properties (additionalProperties true or a schema)',
      sources: [
        {
          url: STRICT_SCHEMA,
          kind: 'code',
          quote: 'additionalProperties should be set to False for object types.',
          read: READ,
        },
      ],
      check(tool) {
        return schemaNodes(tool.inputSchema)
          .filter((node) => opensObject(node.schema))
          .map((node) => ({
            message: `strict mode refuses the schema: the object at ${placeOf(node.pointer)} allows other properties`,
            fix:
              `add \`additionalProperties: false\` to ${placeOf(node.pointer)} (name the keys it takes as ` +
              `properties)`,
          }));
      },
    },
    {
      id: 'host.openai.strict-required',
      host: 'openai',
      effect: 'degraded',
      title: 'optional properties, made required by strict mode',
      sources: [
        { url: STRICT_SCHEMA, kind: 'code', quote: 'json_schema["required"] = list(properties.keys())', read: READ },
      ],
      check(tool) {
        return schemaNodes(tool.inputSchema).flatMap((node) => {
          const properties = node.schema['properties'];
          if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
          const required = new Set(Array.isArray(node.schema['required']) ? node.schema['required'] : []);
          const optional = Object.keys(properties).filter((name) => !required.has(name));
          if (optional.length === 0) return [];
          const names = optional.map((n) => `\`${n}\``).join(', ');
          const them = optional.length === 1 ? 'it' : 'them';
          return [
            {
              message:
                `strict mode makes ${names} at ${placeOf(node.pointer)} required: the model must always send ` +
                `${them}`,
              fix:
                `list ${names} in \`required\` at ${placeOf(node.pointer)} and make ${them} nullable (\`type: ` +
                `[..., "null"]\`)`,
            },
          ];
        });
      },
    },
    {
      id: 'host.openai.strict-one-of',
      host: 'openai',
      effect: 'degraded',
      title: '`oneOf`, rewritten as `anyOf` by strict mode',
      sources: [
        {
          url: STRICT_SCHEMA,
          kind: 'code',
          quote: "oneOf is not supported by OpenAI's structured outputs in nested contexts,",
          read: READ,
        },
      ],
      check(tool) {
        return schemaNodes(tool.inputSchema)
          .filter((node) => Array.isArray(node.schema['oneOf']))
          .map((node) => ({
            message:
              `strict mode sends \`oneOf\` at ${placeOf(node.pointer)} as \`anyOf\`: more than one branch ` +
              `may match`,
            fix:
              `use \`anyOf\` instead of \`oneOf\` at ${placeOf(node.pointer)}, with branches that exclude each ` +
              `other`,
          }));
      },
    },
  ],
  rewrite: strictRewrite,
  notSourced: [
    'the root of the schema must be an object (the structured-outputs guide; read only in third-party copies)',
    'at most 5000 object properties and 10 levels of nesting (the structured-outputs guide; read only in ' +
      'third-party copies)',
    'a maximum number of tools per request (the API reference states 128 only for Assistants and Evals)',
    'a description length limit',
  ],
};
