import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { FAMILY_OF, type AjvFamily } from '../ajv-factory.js';
import { META_DIALECTS, META_SCHEMA_ID, metaFingerprint, metaSchemaAjv } from '../tool-schema/meta-validators.js';
import { WIRE_AJV_OPTIONS, wireFingerprint, wireSchemaDocument, wireSchemaKey } from '../validator.js';
import { WIRE_SCHEMAS, type WireSchemaName } from '../wire/schemas-by-revision.js';
import { REVISIONS } from '../../core/revision.js';
import { metaValidatorsModule, wireValidatorsModule } from './generate.js';
import { loadPrecompiled, metaModule, wireModule } from '../../core/precompiled.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const requireHere = createRequire(import.meta.url);

/** Evaluates generated CommonJS source as a module would be, resolving its requires from here. */
function evaluate(source: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', source)(module, module.exports, requireHere);
  return module.exports;
}

/** What ajv reports, without the parts that legitimately differ between two compilations (none, in practice). */
function verdict(validate: ValidateFunction, value: unknown): unknown {
  const valid = validate(value);
  return { valid, errors: validate.errors ?? null };
}

const SAMPLES: unknown[] = [
  null,
  'text',
  [],
  {},
  { resultType: 'complete', tools: [], ttlMs: -1, cacheScope: 'nowhere' },
  { resultType: 'complete', tools: [{ name: 'a', inputSchema: { type: 'string' }, icons: [{ src: 'not a uri' }] }] },
  {
    content: [
      { type: 'image', data: '!!', mimeType: 5 },
      { type: 'resource_link', uri: 'https://x.test/a', name: 'a' },
    ],
    isError: 'no',
  },
  { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create' } } },
  {
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: { listChanged: 'yes' } },
    _meta: { 'io.modelcontextprotocol/serverInfo': {} },
  },
  { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'm' } },
  { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'n', version: '1', websiteUrl: 'x' } },
  {
    tools: [
      { name: 'a', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 1 }, outputSchema: { type: 'array' } },
    ],
  },
  { content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', _meta: 1 }], structuredContent: [1] },
  [
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', error: { code: 1, message: 'm' } },
  ],
  [
    { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: true } } },
    { jsonrpc: '2.0', method: 'n' },
  ],
];

describe('precompiled wire validators', () => {
  for (const wire of REVISIONS) {
    it(`agree with run-time compilation on every ${wire} schema`, () => {
      const generated = evaluate(wireValidatorsModule(wire));
      expect(generated.fingerprint).toBe(wireFingerprint(wire));
      const ajv = new Ajv2020({ ...WIRE_AJV_OPTIONS });
      addFormats(ajv);
      for (const name of Object.keys(WIRE_SCHEMAS[wire]) as WireSchemaName[]) {
        const precompiled = generated[wireSchemaKey(name, wire)] as ValidateFunction;
        const compiled = ajv.compile(wireSchemaDocument(name, wire));
        for (const sample of SAMPLES)
          expect(verdict(precompiled, sample), `${name} on ${JSON.stringify(sample)}`).toEqual(
            verdict(compiled, sample),
          );
      }
    });
  }
});

const SCHEMAS: unknown[] = [
  { type: 'object', properties: { a: { type: 'string', pattern: '^a' } } },
  { type: 'object', properties: { a: { type: 'strng' } } },
  { type: 'object', required: 'temperature' },
  { type: 'object', properties: { a: { type: 'string', pattern: '([' } } },
  { $defs: { x: { $dynamicAnchor: 'x', minimum: 'one' } }, anyOf: [{ $ref: '#/$defs/x' }, 5] },
  { type: 'object', dependencies: { a: 'b' }, items: [{ type: 'string' }, { maxItems: -1 }] },
  { type: 'object', properties: { a: { enum: [] }, b: { enum: ['x', 'x'] } } },
  {
    id: 'not a uri',
    properties: { n: { minimum: 0, exclusiveMinimum: true, multipleOf: 0 }, f: { format: 5 } },
    required: [],
  },
];

describe('precompiled meta-schema validators', () => {
  for (const family of Object.keys(META_DIALECTS) as AjvFamily[]) {
    it(`agree with run-time compilation for the ${family} family`, () => {
      const generated = evaluate(metaValidatorsModule(family));
      expect(generated.fingerprint).toBe(metaFingerprint(family));
      const ajv = metaSchemaAjv(family);
      for (const dialect of META_DIALECTS[family]) {
        expect(FAMILY_OF[dialect]).toBe(family);
        const compiled = ajv.getSchema(META_SCHEMA_ID[dialect])!;
        for (const schema of SCHEMAS) {
          expect(
            verdict(generated[dialect] as ValidateFunction, schema),
            `${dialect} on ${JSON.stringify(schema)}`,
          ).toEqual(verdict(compiled, schema));
        }
      }
    });
  }
});

describe('loading', () => {
  it('ignores a missing module, so validators are compiled at run time', () => {
    expect(loadPrecompiled('no-such-module.cjs', 'x', import.meta.url)).toBeUndefined();
  });

  const built = fileURLToPath(new URL('../../../dist/src/schema/precompiled/', import.meta.url));
  it.skipIf(!existsSync(built))(
    'the build wrote every module with the fingerprint of the current schemas and ajv',
    () => {
      const fingerprint = (file: string) =>
        /exports\.fingerprint = "([0-9a-f]+)"/.exec(readFileSync(`${built}${file}`, 'utf8'))?.[1];
      for (const wire of REVISIONS) expect(fingerprint(wireModule(wire))).toBe(wireFingerprint(wire));
      for (const family of Object.keys(META_DIALECTS) as AjvFamily[])
        expect(fingerprint(metaModule(family))).toBe(metaFingerprint(family));
    },
  );

  it('a fingerprint changes with the schemas it covers', () => {
    expect(wireFingerprint('2026-07-28')).not.toBe(wireFingerprint('2025-11-25'));
    expect(metaFingerprint('2020')).not.toBe(metaFingerprint('2019'));
  });
});
