import { isObject } from '../../core/jsonrpc.js';
import { compareRevisions, type Revision } from '../../core/revision.js';
import { shorten } from './shorten.js';

export type Dialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-06' | 'draft-04';

export interface DialectInfo {
  dialect?: Dialect;
  /** The raw `$schema`, when it is present and a string. */
  declared?: string;
  supported: boolean;
  reason?: string;
}

/**
 * Dialects whose official meta-schema this tool holds, so a schema declaring one is meta-validated. Values are
 * validated against schemas of every one but draft-04 (src/schema/arguments/validate.ts).
 */
export const SUPPORTED_DIALECTS: readonly Dialect[] = ['2020-12', '2019-09', 'draft-07', 'draft-06', 'draft-04'];

/** MCP basic § JSON Schema Usage: a schema without `$schema` is JSON Schema 2020-12. */
export const DEFAULT_DIALECT: Dialect = '2020-12';

/**
 * Whether the revision names DEFAULT_DIALECT the default (basic § JSON Schema Usage arrived in 2025-11-25). Before, MCP
 * names no dialect for a schema without `$schema`: values are then judged in each dialect this tool validates them in
 * (compileArgumentSchema's `any-dialect`), while the checks of the schema itself take any dialect that accepts it.
 */
export function namesDefaultDialect(wire: Revision): boolean {
  return compareRevisions(wire, '2025-11-25') >= 0;
}

const DIALECT_BY_LOCATION: ReadonlyMap<string, Dialect> = new Map([
  ['json-schema.org/draft/2020-12/schema', '2020-12'],
  ['json-schema.org/draft/2019-09/schema', '2019-09'],
  ['json-schema.org/draft-07/schema', 'draft-07'],
  ['json-schema.org/draft-06/schema', 'draft-06'],
  ['json-schema.org/draft-04/schema', 'draft-04'],
]);

const SCHEME = /^https?:\/\//i;

/** Accepts http or https, any letter case, with or without the empty fragment `#`. */
function dialectForUri(uri: string): Dialect | undefined {
  if (!SCHEME.test(uri)) return undefined;
  const location = uri.replace(SCHEME, '').replace(/#$/, '').toLowerCase();
  return DIALECT_BY_LOCATION.get(location);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** The dialect a schema declares; `undeclared` when it has no `$schema`. */
export function dialectOf(schema: unknown, undeclared: Dialect = DEFAULT_DIALECT): DialectInfo {
  if (!isObject(schema) || !Object.hasOwn(schema, '$schema')) {
    return { dialect: undeclared, supported: true };
  }
  const declared = schema['$schema'];
  if (typeof declared !== 'string') {
    return { supported: false, reason: `$schema must be a string URI, got ${describeType(declared)}` };
  }
  const dialect = dialectForUri(declared);
  if (dialect === undefined) {
    return { declared, supported: false, reason: `unknown dialect ${shorten(declared)}` };
  }
  if (!SUPPORTED_DIALECTS.includes(dialect)) {
    return { dialect, declared, supported: false, reason: `${dialect} is not supported by this tool` };
  }
  return { dialect, declared, supported: true };
}
