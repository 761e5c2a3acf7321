/**
 * The scenarios of client mode: each shapes some of the tools the scripted server offers, so that a driver that only
 * lists and calls every tool exercises the rules its checks judge. Checks read the tool names and values from here.
 */
export const SCENARIOS = [
  'meta',
  'http',
  'x-mcp-header',
  'mrtr',
  'pagination',
  'ref',
  'results',
  'cache',
  'listen',
  'timeout',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const TOOL = {
  echo: 'echo',
  sseEcho: 'sse_echo',
  sseCutShort: 'sse_cut_short',
  nonAsciiName: 'wetter_zürich',
  headerPlain: 'header_plain',
  headerEncoded: 'header_encoded',
  headerSentinel: 'header_sentinel',
  headerNull: 'header_null',
  headerInvalidSpace: 'header_invalid_space',
  headerInvalidDuplicate: 'header_invalid_duplicate',
  headerInvalidNumber: 'header_invalid_number',
  headerInvalidEmpty: 'header_invalid_empty',
  headerInvalidItems: 'header_invalid_items',
  headerInvalidAnyOf: 'header_invalid_anyof',
  mrtrStateOnly: 'mrtr_state_only',
  mrtrAsk: 'mrtr_ask',
  pageTwo: 'page_two',
  pageThree: 'page_three',
  refNetwork: 'ref_network',
  refRelative: 'ref_relative',
  resultUnknownType: 'result_unknown_type',
  formerHeaderMismatchCode: 'legacy_error_code',
  controlErrorCode: 'control_error_code',
  structuredMismatch: 'structured_mismatch',
  appearedAfterChange: 'appeared_after_change',
  caseLower: 'case_probe',
  caseMixed: 'Case_Probe',
  dialectDefault: 'dialect_default',
  dialectUnknown: 'dialect_unknown',
  slowAnswer: 'slow_answer',
  mismatchOnce: 'header_mismatch_once',
} as const;

/** The `$schema` of dialect_unknown's outputSchema: a dialect no client can support. */
export const UNKNOWN_DIALECT = 'https://example.invalid/json-schema/dialect';

/** The tool the listen scenario adds to the set when it sends notifications/tools/list_changed. */
export const APPEARED_AFTER_CHANGE = {
  name: TOOL.appearedAfterChange,
  description: 'Listed only after notifications/tools/list_changed.',
  inputSchema: { type: 'object', properties: {}, examples: [{}] },
  annotations: { readOnlyHint: true },
} as const;

/** Tools whose `x-mcp-header` annotations break a rule: a client on Streamable HTTP must leave them out. */
export const INVALID_HEADER_TOOLS: readonly string[] = [
  TOOL.headerInvalidSpace,
  TOOL.headerInvalidDuplicate,
  TOOL.headerInvalidNumber,
  TOOL.headerInvalidEmpty,
  TOOL.headerInvalidItems,
  TOOL.headerInvalidAnyOf,
];

/** The `requestState` values the MRTR tools issue, chosen so that trimming, re-encoding or parsing changes them. */
export const MRTR_STATE = {
  stateOnly: ' s1:eyJ0b29sIjoibXJ0cl9zdGF0ZV9vbmx5In0=/+%2F é ',
  ask: 'a1.{"round":1}.c2lnbmF0dXJl==',
} as const;

/** The error legacy_error_code answers with: the code HeaderMismatch had before the renumbering to -32020. */
export const FORMER_HEADER_MISMATCH_CODE = -32001;

/**
 * The error control_error_code answers with (same HTTP status, same message): another code of the legacy sub-range,
 * to which neither the spec nor the official TypeScript and Python SDKs give a meaning (the SDKs use -32000 and
 * -32001 for local errors). A client that recovers from both alike gives -32001 no meaning of its own.
 */
export const CONTROL_ERROR_CODE = -32003;

/**
 * The `id:` fields of the SSE answer that sse_cut_short cuts short: a priming event, then its progress when asked for.
 */
export const CUT_STREAM_EVENT_IDS = ['sse_cut_short-0', 'sse_cut_short-1'] as const;

/** The `resultType` of the result that no client can recognise. */
export const UNKNOWN_RESULT_TYPE = 'x-conformance-unknown';

/** The cursor of the second tools/list page (kept opaque only if sent back byte for byte); the third page's is "". */
export const PAGE_TWO_CURSOR = ' p2/%2F+=?&#é{"offset":2} ';

const object = (
  properties: Record<string, unknown>,
  example: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  type: 'object',
  properties,
  ...extra,
  examples: [example],
});

const readOnly = { readOnlyHint: true };

export interface ToolSpec {
  scenario: Scenario;
  /** 2 or 3: listed on that page of tools/list (pagination scenario); others are on the first page. */
  page?: 2 | 3;
  definition: (setup: { canaryOrigin: string }) => Record<string, unknown>;
}

const spec = (
  scenario: Scenario,
  name: string,
  description: string,
  inputSchema: Record<string, unknown>,
  more: Record<string, unknown> = {},
  page?: 2 | 3,
): ToolSpec => ({
  scenario,
  ...(page ? { page } : {}),
  definition: () => ({ name, description, inputSchema, annotations: readOnly, ...more }),
});

/** Every scripted tool, in listing order. */
export const TOOL_SPECS: readonly ToolSpec[] = [
  spec('meta', TOOL.echo, 'Echoes its text.', object({ text: { type: 'string' } }, { text: 'hello' })),
  spec(
    'http',
    TOOL.sseEcho,
    'Echoes its text; answered as an SSE stream.',
    object({ text: { type: 'string' } }, { text: 'over SSE' }),
  ),
  spec(
    'http',
    TOOL.sseCutShort,
    'Answered as an SSE stream whose events carry ids, cut short before the response (over stdio: a plain result).',
    object({}, {}),
  ),
  spec(
    'http',
    TOOL.nonAsciiName,
    'A name outside the header-safe set (names are only SHOULD-constrained): Mcp-Name carries it Base64-encoded.',
    object({}, {}),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerPlain,
    'Mirrors a string, an integer, a boolean and a nested string into headers.',
    object(
      {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        count: { type: 'integer', 'x-mcp-header': 'Count' },
        verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
        target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
      },
      { region: 'us-west1', count: -7, verbose: true, target: { zone: 'eu 1' } },
    ),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerEncoded,
    'Values that need the Base64 sentinel: non-ASCII, leading and trailing space, a control character.',
    object(
      {
        greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
        padded: { type: 'string', 'x-mcp-header': 'Padded' },
        indented: { type: 'string', 'x-mcp-header': 'Indented' },
      },
      { greeting: 'Hello, 世界', padded: ' padded ', indented: '\tindented' },
    ),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerSentinel,
    'A plain-ASCII value that looks like the sentinel.',
    object({ val: { type: 'string', 'x-mcp-header': 'Val' } }, { val: '=?base64?literal?=' }),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerNull,
    'A null value and an absent one: neither gets a header.',
    object(
      {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        note: { type: 'string', 'x-mcp-header': 'Note' },
        text: { type: 'string' },
      },
      { region: null, text: 'x' },
    ),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerInvalidSpace,
    'Invalid: the header name has a space.',
    object({ region: { type: 'string', 'x-mcp-header': 'My Region' } }, { region: 'us-west1' }),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerInvalidDuplicate,
    'Invalid: two annotations differ only in case.',
    object(
      { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } },
      { a: 'x', b: 'y' },
    ),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerInvalidNumber,
    'Invalid: the annotated property is a number.',
    object({ ratio: { type: 'number', 'x-mcp-header': 'Ratio' } }, { ratio: 0.5 }),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerInvalidEmpty,
    'Invalid: the header name is empty.',
    object({ region: { type: 'string', 'x-mcp-header': '' } }, { region: 'us-west1' }),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerInvalidItems,
    'Invalid: the annotation is under items, not reachable through properties alone.',
    object(
      { regions: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Region' } } },
      { regions: ['us-west1'] },
    ),
  ),
  spec(
    'x-mcp-header',
    TOOL.headerInvalidAnyOf,
    'Invalid: the annotation is under anyOf, not reachable through properties alone.',
    object(
      { region: { anyOf: [{ type: 'string', 'x-mcp-header': 'Region' }, { type: 'integer' }] } },
      { region: 'us-west1' },
    ),
  ),
  spec(
    'mrtr',
    TOOL.mrtrStateOnly,
    'Answers input_required with only a requestState (load shedding), then completes.',
    object({ text: { type: 'string' } }, { text: 'state only' }),
  ),
  spec(
    'mrtr',
    TOOL.mrtrAsk,
    'Asks for input twice (with, then without a requestState), then completes.',
    object({ text: { type: 'string' } }, { text: 'ask me' }),
  ),
  spec('pagination', TOOL.pageTwo, 'Listed on the second page.', object({}, {}), {}, 2),
  spec('pagination', TOOL.pageThree, 'Listed on the third page, reached with the empty cursor.', object({}, {}), {}, 3),
  {
    scenario: 'ref',
    definition: ({ canaryOrigin }) => ({
      name: TOOL.refNetwork,
      description: 'Its schemas $ref a network URI (a loopback canary): never to be fetched.',
      inputSchema: object({ q: { $ref: `${canaryOrigin}/schemas/query.json` } }, { q: 'x' }),
      outputSchema: { type: 'object', properties: { answer: { $ref: `${canaryOrigin}/schemas/answer.json` } } },
      annotations: readOnly,
    }),
  },
  {
    scenario: 'ref',
    definition: ({ canaryOrigin }) => ({
      name: TOOL.refRelative,
      description: 'A relative $ref against a network $id: it resolves to the canary too.',
      inputSchema: {
        $id: `${canaryOrigin}/schemas/root.json`,
        ...object({ q: { $ref: 'relative-query.json' } }, { q: 'x' }),
      },
      annotations: readOnly,
    }),
  },
  spec('results', TOOL.resultUnknownType, 'Its result has a resultType no client knows: invalid.', object({}, {})),
  spec(
    'results',
    TOOL.formerHeaderMismatchCode,
    'Answers with -32001, HeaderMismatch before the renumbering: a legacy code with no meaning now.',
    object({}, {}),
  ),
  spec(
    'results',
    TOOL.controlErrorCode,
    'Answers like legacy_error_code, with -32003: the control, a legacy code that never meant anything.',
    object({}, {}),
  ),
  spec('results', TOOL.structuredMismatch, 'Its structuredContent breaks its outputSchema.', object({}, {}), {
    outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] },
  }),
  spec(
    'meta',
    TOOL.caseLower,
    'Its name differs from Case_Probe only in case: names are case-sensitive, so they are two tools.',
    object({}, {}),
  ),
  spec(
    'meta',
    TOOL.caseMixed,
    'Its name differs from case_probe only in case: names are case-sensitive, so they are two tools.',
    object({}, {}),
  ),
  spec(
    'results',
    TOOL.dialectDefault,
    'Its outputSchema (no $schema: 2020-12) uses prefixItems, which its structuredContent breaks; draft-07 ' +
      'would ignore the keyword.',
    object({}, {}),
    {
      outputSchema: {
        type: 'object',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } },
        required: ['pair'],
      },
    },
  ),
  spec(
    'results',
    TOOL.dialectUnknown,
    'Its outputSchema declares a dialect no client supports; its structuredContent would be valid under 2020-12.',
    object({}, {}),
    {
      outputSchema: { $schema: UNKNOWN_DIALECT, type: 'object', properties: { answer: { type: 'string' } } },
    },
  ),
  spec(
    'x-mcp-header',
    TOOL.mismatchOnce,
    'Its first call is refused with HeaderMismatch (-32020, HTTP 400); listed again and retried, it answers.',
    object({ region: { type: 'string', 'x-mcp-header': 'Region' } }, { region: 'eu-west1' }),
  ),
  spec(
    'timeout',
    TOOL.slowAnswer,
    'Answered seconds after the call timeout of the driver contract (with progress meanwhile, when asked): a ' +
      'client gives up first.',
    object({}, {}),
  ),
];

/** What the stdio server logs to stderr while `echo` is in flight: it says ERROR, and is only a log line. */
export const STDERR_LOG_LINE = 'ERROR scripted-server: this is a log line on stderr, not an error of the request';
