import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedPath } from '../../../test/helpers/shared.js';
import { REVISIONS, type Revision } from '../../core/revision.js';
import { BASE64_PATTERN } from './content-blocks.js';
import { WIRE_SCHEMAS, type WireSchemaName } from './schemas-by-revision.js';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords that assert nothing (annotations), or only name the dialect. */
const ANNOTATIONS = new Set(['description', '$schema', 'title', 'default', 'examples', '$comment']);
/** Keywords whose value is the rule itself. */
const VALUE_KEYWORDS = new Set([
  'type',
  'const',
  'enum',
  'required',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
]);

/**
 * The rules a schema states, one line each (`path keyword value`), in a form both our schemas and schema.json reduce
 * to: references inlined, annotations dropped, `allOf` merged, alternatives (`anyOf`, and our `if`/`then`/`else`
 * discriminations, whose own `type`/`required`/`enum` only restate what every branch requires) labelled by their
 * `type` constant or their required members, and the canonical base64 pattern read as the `byte` format it enforces.
 */
function rulesOf(schema: unknown, resolve: (ref: string) => unknown): string[] {
  const rules = new Map<string, unknown>();
  const add = (path: string, keyword: string, value: unknown) => {
    const key = `${path} ${keyword}`;
    const previous = rules.get(key);
    rules.set(
      key,
      keyword === 'required' && Array.isArray(previous)
        ? [...new Set([...previous, ...(value as unknown[])])].sort()
        : value,
    );
  };

  const deref = (node: unknown): unknown => {
    let at = node;
    while (isNode(at) && typeof at.$ref === 'string') at = resolve(at.$ref);
    return at;
  };

  const discriminations = (node: Node): unknown[] | undefined => {
    if ('if' in node) return [node.then, node.else].filter((a) => a !== undefined);
    if (Array.isArray(node.allOf) && node.allOf.every((a) => isNode(a) && 'if' in a))
      return node.allOf.map((a) => (a as Node).then);
    return undefined;
  };
  /** A node that only chooses between alternatives: a discrimination, or an anyOf with no other assertion. */
  const pureChoice = (node: Node): unknown[] | undefined =>
    discriminations(node) ??
    (Array.isArray(node.anyOf) && Object.keys(node).every((k) => k === 'anyOf' || ANNOTATIONS.has(k))
      ? node.anyOf
      : undefined);
  /** The alternatives of a choice, nested choices spliced in. */
  const alternatives = (choice: readonly unknown[]): unknown[] =>
    choice.flatMap((a) => {
      const node = deref(a);
      const nested = isNode(node) ? pureChoice(node) : undefined;
      return nested ? alternatives(nested) : [node];
    });

  const label = (node: unknown, index: number, nested = false): string => {
    if (!isNode(node)) return `#${index}`;
    const discriminator =
      isNode(node.properties) && isNode(node.properties.type) ? node.properties.type.const : undefined;
    if (typeof discriminator === 'string') return `type=${discriminator}`;
    if (node.type === 'array')
      return nested
        ? '[]'
        : `[${alternatives([node.items])
            .map((item, i) => label(item, i, true))
            .sort()
            .join('|')}]`;
    if (Array.isArray(node.required)) return `{${[...node.required].sort().join(',')}}`;
    return `#${index}`;
  };

  const walk = (raw: unknown, path: string, within: readonly string[]): void => {
    if (isNode(raw) && typeof raw.$ref === 'string') {
      // A recursive definition (a JSON value holding JSON values) is named below its first occurrence.
      if (within.includes(raw.$ref)) return add(path, '$ref', raw.$ref.replace(/^.*\//, ''));
      within = [...within, raw.$ref];
    }
    const node = deref(raw);
    if (node === false) return add(path, 'false', true);
    if (!isNode(node)) return;
    const choose = (choice: readonly unknown[]) => {
      const all = alternatives(choice);
      const labels = all.map((alternative, i) => label(alternative, i));
      add(path, 'anyOf', [...labels].sort());
      all.forEach((alternative, i) => walk(alternative, `${path}|${labels[i]}`, within));
    };
    const discriminated = discriminations(node);
    if (discriminated) return choose(discriminated);
    for (const [keyword, value] of Object.entries(node)) {
      if (ANNOTATIONS.has(keyword) || keyword === '$ref') continue;
      if (keyword === 'anyOf') choose(value as unknown[]);
      else if (keyword === 'allOf') (value as unknown[]).forEach((part) => walk(part, path, within));
      else if (keyword === 'properties')
        for (const [name, sub] of Object.entries(value as Node)) walk(sub, `${path}.${name}`, within);
      else if (keyword === 'items') walk(value, `${path}[]`, within);
      else if (keyword === 'additionalProperties') {
        if (value !== true && !(isNode(value) && Object.keys(value).length === 0)) walk(value, `${path}{*}`, within);
      } else if (keyword === 'pattern' && value === BASE64_PATTERN) add(path, 'format', 'byte');
      else if (keyword === 'type' && 'const' in node) {
        if (value !== (Number.isInteger(node.const) ? 'integer' : typeof node.const)) add(path, keyword, value);
      } else if (VALUE_KEYWORDS.has(keyword))
        add(path, keyword, Array.isArray(value) ? [...(value as unknown[])].sort() : value);
      else throw new Error(`${path}: this comparison does not read the keyword ${keyword}`);
    }
  };

  walk(schema, '', []);
  return [...rules].map(([key, value]) => `${key} ${JSON.stringify(value)}`);
}

const specFile = (wire: Revision) => sharedPath('spec', wire, 'schema.json');
const HAVE_SPEC = REVISIONS.every((wire) => existsSync(specFile(wire)));

/**
 * Where a revision's schema.json states what we name `name`: before 2025-11-25 two envelopes had other names, and
 * before 2025-06-18 content blocks had none.
 */
function specDefinition(name: WireSchemaName, definitions: Node): unknown {
  const formerly: Partial<Record<WireSchemaName, string>> = {
    JSONRPCResultResponse: 'JSONRPCResponse',
    JSONRPCErrorResponse: 'JSONRPCError',
  };
  if (name in definitions) return definitions[name];
  if (formerly[name] !== undefined && formerly[name] in definitions) return definitions[formerly[name]];
  if (name === 'ContentBlock') return (((definitions.CallToolResult as Node).properties as Node).content as Node).items;
  return undefined;
}

/**
 * How our schemas and one revision's schema.json differ, one line per rule: `Name: ours only: …` or
 * `Name: spec only: …`.
 */
function differences(wire: Revision): string[] {
  const document = JSON.parse(readFileSync(specFile(wire), 'utf8')) as Node;
  const definitions = (document.$defs ?? document.definitions) as Node;
  const resolve = (ref: string) => {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
    if (name === undefined || !(name in definitions)) throw new Error(`unresolved ${ref} in the ${wire} schema.json`);
    return definitions[name];
  };
  return (Object.entries(WIRE_SCHEMAS[wire]) as [WireSchemaName, object][]).flatMap(([name, ours]) => {
    const spec = specDefinition(name, definitions);
    if (spec === undefined) return [`${name}: not a definition of schema.json`];
    const mine = rulesOf(ours, resolve);
    const theirs = rulesOf(spec, resolve);
    return [
      ...mine.filter((r) => !theirs.includes(r)).map((r) => `${name}: ours only: ${r}`),
      ...theirs.filter((r) => !mine.includes(r)).map((r) => `${name}: spec only: ${r}`),
    ];
  });
}

interface Deviation {
  wires: readonly Revision[];
  match: RegExp;
  why: string;
}

const INITIALIZE_WIRES = REVISIONS.filter((wire) => wire !== '2026-07-28');

/** Where our schemas knowingly differ from schema.json, and why. Anything else is a transcription error. */
const DEVIATIONS: readonly Deviation[] = [
  {
    wires: REVISIONS,
    match: /: ours only: .*\.(result|error) false true$/,
    why: 'JSON-RPC 2.0 §5: a response has a result or an error, never both',
  },
  {
    wires: REVISIONS,
    match: /: ours only: .*\.id type \["integer","null","string"\]$/,
    why: 'JSON-RPC 2.0 §5: the id is null when the request it answers could not be read',
  },
  {
    wires: REVISIONS,
    match: /: spec only: .*\.id type \["integer","string"\]$/,
    why: 'the same rule, seen from schema.json',
  },
  {
    wires: REVISIONS,
    match: /^JSONRPC\w+: spec only: .*\.result[ .]/,
    why: "an envelope leaves a result's members to the schema of its method (ListToolsResult, …)",
  },
  {
    wires: INITIALIZE_WIRES,
    match: /^(InvalidParamsError|MethodNotFoundError): not a definition/,
    why: 'plain JSON-RPC codes, which schema.json names only from 2026-07-28 on',
  },
  {
    wires: ['2025-11-25'],
    match: /: spec only: .*\.tasks\./,
    why: 'tasks are outside the Tools conformance of this tool: the capability is only held to be an object',
  },
  {
    wires: ['2026-07-28'],
    match: /: spec only: .*\{\*\}(\{\*\})?(\||( anyOf \["#0"))/,
    why: 'capability settings are JSON values whose members are not checked',
  },
  {
    wires: ['2026-07-28'],
    match: /: ours only: \.resultType const "(complete|input_required)"$/,
    why: "the core resultType of each result; another value is base.resulttype.set's to report",
  },
  {
    wires: ['2026-07-28'],
    match: /: spec only: \.resultType type "string"$/,
    why: 'the same rule, seen from schema.json',
  },
  {
    wires: ['2026-07-28'],
    match: /^DiscoverResult: ours only: \.supportedVersions minItems 1$/,
    why: 'server/discover: the supported versions are never empty (discover.supported-versions)',
  },
  {
    wires: ['2026-07-28'],
    match:
      /^(HeaderMismatchError|UnsupportedProtocolVersionError|MissingRequiredClientCapabilityError|InvalidParamsError|MethodNotFoundError): /,
    why: 'accept a whole error response or the bare error object, as the official examples use both forms',
  },
  {
    wires: ['2026-07-28'],
    match: /^InputRequiredResult: ours only: ( anyOf|\|\{(inputRequests|requestState)\} required)/,
    why: 'mrtr: an InputRequiredResult carries inputRequests or requestState (mrtr.irr.non-empty)',
  },
  {
    wires: ['2026-07-28'],
    match: /^InputRequiredResult: (ours|spec) only: \.inputRequests\{\*\}/,
    why: 'an input request is held to a method and a params object; its params are not modelled',
  },
];

const TITLE = "our wire schemas state the rules of each revision's schema.json";

describe.skipIf(!HAVE_SPEC)(HAVE_SPEC ? TITLE : `${TITLE}: SKIPPED because ${sharedPath('spec')} is absent`, () => {
  for (const wire of REVISIONS) {
    const deviations = DEVIATIONS.filter((d) => d.wires.includes(wire));
    it(`${wire}: every difference is a deviation listed here, and every deviation listed still occurs`, () => {
      const found = differences(wire);
      expect(found.length).toBeGreaterThan(0);
      expect(found.filter((line) => !deviations.some((d) => d.match.test(line)))).toEqual([]);
      expect(deviations.filter((d) => !found.some((line) => d.match.test(line))).map((d) => d.why)).toEqual([]);
    });
  }
});

describe('the rule comparison', () => {
  it('sees a rule dropped and a rule added', () => {
    const resolve = (ref: string) => {
      throw new Error(`our schemas hold no $ref (${ref})`);
    };
    const tool = WIRE_SCHEMAS['2025-06-18'].Tool as { properties: Node; required: string[] };
    const lax = { ...tool, properties: { ...tool.properties, title: {} } };
    const strict = { ...tool, required: [...tool.required, 'description'] };
    const rules = rulesOf(tool, resolve);
    expect(rules.filter((r) => !rulesOf(lax, resolve).includes(r))).toEqual(['.title type "string"']);
    expect(rulesOf(strict, resolve).filter((r) => !rules.includes(r))).toEqual([
      ' required ["description","inputSchema","name"]',
    ]);
  });

  it("reads our discriminated content blocks and schema.json's anyOf of references alike", () => {
    const definitions: Node = {
      TextContent: {
        type: 'object',
        required: ['type', 'text'],
        properties: { type: { type: 'string', const: 'text' }, text: { type: 'string' } },
      },
      ContentBlock: { anyOf: [{ $ref: '#/definitions/TextContent' }] },
    };
    const resolve = (ref: string) => definitions[ref.replace('#/definitions/', '')];
    const ours = {
      type: 'object',
      required: ['type'],
      properties: { type: { type: 'string', enum: ['text'] } },
      allOf: [{ if: {}, then: definitions.TextContent }],
    };
    expect(rulesOf(ours, resolve)).toEqual(rulesOf(definitions.ContentBlock, resolve));
  });
});
