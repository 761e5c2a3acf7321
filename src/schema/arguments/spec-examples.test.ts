import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isObject } from '../../core/jsonrpc.js';
import { invalidArguments } from './mutate.js';
import { sampleArguments } from './sample.js';
import { compileArgumentSchema } from './validate.js';

const TOOL_EXAMPLES = resolve(import.meta.dirname, '../../../../shared/spec/2026-07-28/examples/Tool');
const present = existsSync(TOOL_EXAMPLES);

function inputSchemas(): [string, Record<string, unknown>][] {
  return readdirSync(TOOL_EXAMPLES)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file): [string, unknown] => [
      file,
      (JSON.parse(readFileSync(resolve(TOOL_EXAMPLES, file), 'utf8')) as { inputSchema?: unknown }).inputSchema,
    ])
    .filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1]));
}

function hasRequiredProperties(schema: Record<string, unknown>): boolean {
  const branches = ['oneOf', 'anyOf', 'allOf'].flatMap((keyword) =>
    Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : [],
  );
  return [schema, ...branches].some(
    (node) => isObject(node) && Array.isArray(node['required']) && node['required'].length > 0,
  );
}

describe.skipIf(!present)('official Tool examples', () => {
  it('are present', () => {
    expect(inputSchemas().length).toBeGreaterThanOrEqual(5);
  });

  it.each(present ? inputSchemas() : [])('%s: a valid sample and rejected mutations', (_file, schema) => {
    const compiled = compileArgumentSchema(schema);
    if (!compiled.ok) throw new Error(compiled.reason);
    const sampled = sampleArguments(schema);
    if (!sampled.ok) throw new Error(`no sample: ${sampled.reason}`);
    expect(compiled.validator.validate(sampled.value).valid).toBe(true);
    const mutations = invalidArguments(schema, sampled.value);
    if (hasRequiredProperties(schema)) expect(mutations.length).toBeGreaterThan(0);
    for (const mutation of mutations)
      expect(compiled.validator.validate(mutation.value).valid, mutation.description).toBe(false);
    expect(sampleArguments(schema)).toEqual(sampled);
    expect(invalidArguments(schema, sampled.value)).toEqual(mutations);
  });
});

if (!present) console.warn(`skipping official Tool examples: ${TOOL_EXAMPLES} is absent`);
