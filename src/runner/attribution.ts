import type { SchemaIssue } from '../schema/validator.js';

/**
 * Each schema issue found in a result is reported by exactly one check: the most specific requirement
 * that covers it, else the catch-all `schema.result.valid`. Ordered: the first matching rule wins.
 */
interface AttributionRule {
  check: string;
  methods?: readonly string[];
  matches(issue: SchemaIssue): boolean;
}

const missingAtRoot = (issue: SchemaIssue, ...props: string[]) =>
  issue.keyword === 'required' && issue.instancePath === '' && props.includes(String(issue.params.missingProperty));
const at = (issue: SchemaIssue, path: string) =>
  issue.instancePath === path || issue.instancePath.startsWith(path + '/');

const CACHEABLE = ['server/discover', 'tools/list'] as const;
const TOOL = /^\/tools\/\d+$/;
const TOOL_CHILD = /^\/tools\/\d+\//;
const toolField = (issue: SchemaIssue, field: string) =>
  new RegExp(`^/tools/\\d+/${field}(/|$)`).test(issue.instancePath);
const missing = (params: Record<string, unknown>, prop: string) => params.missingProperty === prop;

export const ATTRIBUTION_RULES: readonly AttributionRule[] = [
  { check: 'base.res.resulttype', matches: (i) => missingAtRoot(i, 'resultType') },
  { check: 'base.resulttype.set', matches: (i) => at(i, '/resultType') },
  {
    check: 'cache.server.hints',
    methods: CACHEABLE,
    matches: (i) => missingAtRoot(i, 'ttlMs', 'cacheScope') || at(i, '/cacheScope'),
  },
  { check: 'cache.server.ttl-nonneg', methods: CACHEABLE, matches: (i) => at(i, '/ttlMs') },
  {
    check: 'discover.supported-versions',
    methods: ['server/discover'],
    // An empty list only: a missing or mistyped field breaks a schema.json rule and goes to the catch-all.
    matches: (i) => i.instancePath === '/supportedVersions' && i.keyword === 'minItems',
  },
  {
    check: 'tools.cap.list-changed-type',
    methods: ['server/discover', 'initialize'],
    matches: (i) => at(i, '/capabilities/tools/listChanged'),
  },
  {
    check: 'mrtr.irr.non-empty',
    methods: ['tools/call'],
    matches: (i) =>
      i.instancePath === '' && (i.keyword === 'anyOf' || missingAtRoot(i, 'inputRequests', 'requestState')),
  },
  {
    check: 'tools.schema.input-valid-object',
    methods: ['tools/list'],
    matches: (i) => toolField(i, 'inputSchema') || (TOOL.test(i.instancePath) && missing(i.params, 'inputSchema')),
  },
  { check: 'tools.annotations.types', methods: ['tools/list'], matches: (i) => toolField(i, 'annotations') },
  { check: 'icons.shape', methods: ['tools/list'], matches: (i) => toolField(i, 'icons') },
  {
    check: 'tools.tool.shape',
    methods: ['tools/list'],
    matches: (i) => TOOL.test(i.instancePath) || TOOL_CHILD.test(i.instancePath),
  },
  {
    check: 'tools.list.respond',
    methods: ['tools/list'],
    matches: (i) => missingAtRoot(i, 'tools') || i.instancePath === '/tools' || at(i, '/nextCursor'),
  },
];

export const CATCH_ALL_CHECK = 'schema.result.valid';

export function attribute(method: string, issue: SchemaIssue): string {
  for (const rule of ATTRIBUTION_RULES) {
    if (rule.methods && !rule.methods.includes(method)) continue;
    if (rule.matches(issue)) return rule.check;
  }
  return CATCH_ALL_CHECK;
}
