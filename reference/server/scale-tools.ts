/**
 * Benchmark listings: thousands of generated tools over many pages (--scale-tools N), or one tools/list page of
 * several megabytes (--big-page-mb M). Generated tools are not callable (tools/call does not know them), so they
 * are annotated as not read-only: an audit reads them but never calls them.
 */

import { PAGE_SIZE } from './constants.js';

type Listed = Record<string, unknown>;

export interface ListingScale {
  /** Appended after the reference tools, in this order (listed instead of them when `failing`). */
  tools: readonly Listed[];
  /**
   * --failing-tools: `tools` are the whole listing, read-only and callable, and every call of one answers a tool
   * execution error (isError), like a tool whose upstream cannot be reached.
   */
  failing?: ReadonlySet<string>;
  /** Tools per tools/list page. */
  pageSize: number;
}

/** Page size of the --scale-tools listing: 10,000 tools come in 101 pages. */
export const SCALE_PAGE_SIZE = 100;
/** So large that every tool fits on the first page. */
const ONE_PAGE = 1_000_000_000;
/** Every this-many-th generated tool has a large input schema. */
const LARGE_EVERY = 100;
const LARGE_PROPERTIES = 150;

const WORDS = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
];
const word = (i: number): string => WORDS[i % WORDS.length]!;

function largeSchema(i: number): Listed {
  const properties: Listed = {};
  for (let p = 0; p < LARGE_PROPERTIES; p += 1) {
    properties[`${word(p)}_${p}`] = {
      type: p % 3 === 0 ? 'integer' : 'string',
      description:
        `Field ${p} of generated tool ${i}: ${word(p + i)} ${word(p * 7)} ${word(p * 13 + 1)} setting ` +
        `for the ${word(i)} profile`,
      ...(p % 3 === 0 ? { minimum: 0, maximum: 1000 + p } : { maxLength: 64 + p }),
    };
  }
  return { type: 'object', properties, required: [`${word(0)}_0`], additionalProperties: false };
}

/** Six shapes with index-dependent names, bounds and descriptions: no two schemas are byte-for-byte equal. */
function inputSchema(i: number): Listed {
  if (i % LARGE_EVERY === LARGE_EVERY - 1) return largeSchema(i);
  return { ...shapedSchema(i), description: `Arguments of generated tool ${i}` };
}

function shapedSchema(i: number): Listed {
  const key = `${word(i)}_${i % 97}`;
  switch (i % 6) {
    case 0:
      return {
        type: 'object',
        properties: { [key]: { type: 'string', minLength: 1 } },
        required: [key],
        additionalProperties: false,
      };
    case 1:
      return {
        type: 'object',
        properties: { [key]: { type: 'integer', minimum: -(i % 50), maximum: 100 + i }, scale: { type: 'number' } },
      };
    case 2:
      return {
        type: 'object',
        properties: { mode: { type: 'string', enum: [word(i), word(i + 1), word(i + 2)] }, [key]: { type: 'boolean' } },
        required: ['mode'],
      };
    case 3:
      return {
        type: 'object',
        properties: {
          filter: {
            type: 'object',
            properties: { [key]: { type: 'array', items: { type: 'string' }, maxItems: 1 + (i % 20) } },
          },
        },
      };
    case 4:
      return {
        type: 'object',
        $defs: {
          item: { type: 'object', properties: { [key]: { type: 'string' }, count: { type: 'integer', minimum: 0 } } },
        },
        properties: { items: { type: 'array', items: { $ref: '#/$defs/item' } } },
      };
    default:
      return {
        type: 'object',
        properties: {
          target: {
            anyOf: [
              { type: 'string', pattern: `^${word(i)}` },
              { type: 'integer', minimum: i % 10 },
            ],
          },
        },
      };
  }
}

export function generatedTool(i: number): Listed {
  const tool: Listed = {
    name: `scale_${String(i).padStart(5, '0')}`,
    title: `Generated tool ${i}`,
    description: `Generated tool ${i} for listing benchmarks (${word(i)} ${word(i * 5)}); not callable.`,
    inputSchema: inputSchema(i),
    annotations: { readOnlyHint: false, destructiveHint: false },
  };
  if (i % 3 === 0) {
    tool.outputSchema = {
      type: 'object',
      properties: { ok: { type: 'boolean' }, [`${word(i)}_count`]: { type: 'integer' } },
      required: ['ok'],
    };
  }
  return tool;
}

/** What a --failing-tools call answers: its upstream cannot be reached. */
export const FAILING_TOOL_ERROR = 'upstream unavailable: getaddrinfo ENOTFOUND api.example.invalid';

/**
 * `count` generated read-only tools (the six small schema shapes of generatedTool) listed instead of the reference
 * ones, 4 per page like them; every call of one fails (FAILING_TOOL_ERROR), with --error-latency-ms as late as wanted.
 */
export function failingTools(count: number): ListingScale {
  const tools = Array.from({ length: count }, (_, i) => ({
    name: `failing_${String(i).padStart(2, '0')}`,
    description: `Generated tool ${i} whose every call fails: its upstream cannot be reached.`,
    inputSchema: { ...shapedSchema(i), description: `Arguments of generated tool ${i}` },
    annotations: { readOnlyHint: true, openWorldHint: true },
  }));
  return { tools, pageSize: PAGE_SIZE, failing: new Set(tools.map((tool) => tool.name)) };
}

/** `count` generated tools, served SCALE_PAGE_SIZE per page. */
export function scaledTools(count: number): ListingScale {
  return { tools: Array.from({ length: count }, (_, i) => generatedTool(i)), pageSize: SCALE_PAGE_SIZE };
}

/** Generated tools whose JSON adds up to at least `megabytes` MB, all on one page. */
export function bigPage(megabytes: number): ListingScale {
  const target = megabytes * 1024 * 1024;
  const tools: Listed[] = [];
  for (let bytes = 0; bytes < target;) {
    const tool = generatedTool(tools.length);
    tools.push(tool);
    bytes += JSON.stringify(tool).length + 1;
  }
  return { tools, pageSize: ONE_PAGE };
}
