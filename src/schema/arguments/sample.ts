import { isObject } from '../../core/jsonrpc.js';
import { describeIssue } from './ajv-issues.js';
import { localChecker } from './local-check.js';
import { sampleValue } from './sample-value.js';
import { documentOf } from './schema-document.js';
import { cloneJson, failure, schemaListAt, type SchemaObject } from './schema-node.js';
import { compileArgumentSchema, type ArgumentValidator } from './validate.js';

export type SampledArguments =
  { ok: true; value: Record<string, unknown>; how: string } | { ok: false; reason: string };

interface Candidate {
  how: string;
  value?: unknown;
  reason?: string;
}

function construct(schema: SchemaObject, useHints: boolean): Candidate {
  const how = useHints
    ? 'constructed from the schema'
    : 'constructed from the schema (nested examples and defaults ignored)';
  const sampled = sampleValue(schema, { doc: documentOf(schema), useHints, checkLocally: localChecker(schema) });
  return sampled.ok ? { how, value: sampled.value } : { how, reason: sampled.reason };
}

/** Root `examples[0]`, root `default`, then constructed values; each is produced only when asked for. */
function* candidates(schema: SchemaObject): Generator<Candidate> {
  const examples = schemaListAt(schema, 'examples');
  if (examples.length > 0) yield { how: 'examples[0]', value: examples[0] };
  if (Object.hasOwn(schema, 'default')) yield { how: 'default', value: schema['default'] };
  yield construct(schema, true);
  yield construct(schema, false);
}

type Judged = SampledArguments & { formatOnly?: boolean };

function verdict(candidate: Candidate, validator: ArgumentValidator): Judged {
  if (candidate.reason !== undefined) return failure(candidate.reason);
  if (!isObject(candidate.value)) return failure(`${candidate.how} is not an object`);
  const { valid, issues, format } = validator.validate(candidate.value);
  if (!valid)
    return failure(`${candidate.how} does not validate: ${issues[0] ? describeIssue(issues[0]) : 'unknown issue'}`);
  return { ok: true, value: cloneJson(candidate.value), how: candidate.how, ...(format ? { formatOnly: true } : {}) };
}

/**
 * A small, deterministic argument object that `schema` accepts (checked with the compiled validator),
 * or the reason none could be produced. The first failure of a constructed candidate is reported. A candidate that
 * only a validator ignoring (or asserting) formats accepts is valid, but one every validator accepts is preferred.
 */
export function sampleArguments(schema: unknown): SampledArguments {
  if (!isObject(schema)) return failure('the input schema must be a JSON object');
  const compiled = compileArgumentSchema(schema);
  if (!compiled.ok) return failure(compiled.reason);
  let firstConstructedFailure: string | undefined;
  let formatOnly: SampledArguments | undefined;
  for (const candidate of candidates(schema)) {
    const { formatOnly: hingesOnFormat, ...result } = verdict(candidate, compiled.validator);
    if (result.ok && !hingesOnFormat) return result;
    if (result.ok) formatOnly ??= result;
    else if (candidate.how.startsWith('constructed')) firstConstructedFailure ??= result.reason;
  }
  return formatOnly ?? failure(firstConstructedFailure ?? 'no candidate validates');
}
