import { toIssues, type SchemaIssue } from '../validator.js';
import { DEFAULT_SCHEMA_LIMITS, measureSchema, type SchemaLimits } from './bounds.js';
import { dialectOf, type Dialect, type DialectInfo } from './dialect.js';
import { metaValidatorFor } from './meta-validators.js';

export interface MetaVerdict {
  dialect: DialectInfo;
  /** False when the dialect is unsupported, the schema is over the bounds, or validation could not run. */
  checked: boolean;
  issues: SchemaIssue[];
  skippedBecause?: string;
}

const MAX_CACHED_ENTRIES = 256;
/** Total length of the cached JSON texts (UTF-16 units), so hostile megabyte schemas cannot pile up. */
const MAX_CACHED_CHARS = 8 * 1024 * 1024;

/** Issues of meta-validated schemas keyed by the dialect and their JSON text. */
const cache = new Map<string, SchemaIssue[]>();
let cachedChars = 0;
let runs = 0;

function remember(key: string, issues: SchemaIssue[]): void {
  if (key.length > MAX_CACHED_CHARS) return;
  for (const oldest of cache.keys()) {
    if (cache.size < MAX_CACHED_ENTRIES && cachedChars + key.length <= MAX_CACHED_CHARS) break;
    cache.delete(oldest);
    cachedChars -= oldest.length;
  }
  cache.set(key, issues);
  cachedChars += key.length;
}

function copy(issues: readonly SchemaIssue[]): SchemaIssue[] {
  return issues.map((issue) => ({ ...issue, params: { ...issue.params } }));
}

function failure(error: unknown): string {
  if (error instanceof RangeError) return `meta-validation ran out of stack (${error.message})`;
  return `meta-validation failed: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Validates an untrusted `inputSchema`/`outputSchema` against the meta-schema of its declared dialect, or of
 * `undeclared` (default 2020-12) when it has no `$schema`. The schema itself is never compiled and none of its
 * references is followed.
 */
export function validateSchemaDocument(
  schema: unknown,
  limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS,
  undeclared?: Dialect,
): MetaVerdict {
  const dialect = dialectOf(schema, undeclared);
  const bounds = measureSchema(schema, limits);
  if (!bounds.ok) return { dialect, checked: false, issues: [], skippedBecause: bounds.message };
  if (!dialect.supported || dialect.dialect === undefined) {
    return { dialect, checked: false, issues: [], skippedBecause: dialect.reason };
  }
  try {
    const key = `${dialect.dialect}\u0000${JSON.stringify(schema) ?? 'undefined'}`;
    let issues = cache.get(key);
    if (issues === undefined) {
      const validate = metaValidatorFor(dialect.dialect);
      runs += 1;
      issues = validate(schema) ? [] : toIssues(validate.errors ?? []);
      remember(key, issues);
    }
    return { dialect, checked: true, issues: copy(issues) };
  } catch (error) {
    return { dialect, checked: false, issues: [], skippedBecause: failure(error) };
  }
}

/** How many meta-validations actually ran in this process (cache hits excluded); for tests. */
export function metaValidationRuns(): number {
  return runs;
}
