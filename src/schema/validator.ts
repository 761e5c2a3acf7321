import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Revision } from '../core/revision.js';
import { fingerprintOf, loadPrecompiled, wireModule, type PrecompiledModule } from '../core/precompiled.js';
import { WIRE_SCHEMAS, type WireSchemaName } from './wire/schemas-by-revision.js';

export type { WireSchemaName } from './wire/schemas-by-revision.js';

export interface SchemaIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

export const MAX_ISSUES = 50;

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** How our own wire schemas are compiled; the build precompiles them with exactly these options. */
export const WIRE_AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
} as const;

const ajvByWire = new Map<Revision, Ajv2020>();
const validators = new Map<string, ValidateFunction>();
let compilations = 0;

/** ajv is loaded on first validation, so `--version`, `--help` and `--list` start fast. */
const requireCjs = createRequire(import.meta.url);

function ajvFor(wire: Revision): Ajv2020 {
  let ajv = ajvByWire.get(wire);
  if (!ajv) {
    const { Ajv2020: Ajv } = requireCjs('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = requireCjs('ajv-formats') as typeof import('ajv-formats').default;
    ajv = new Ajv({ ...WIRE_AJV_OPTIONS });
    addFormats(ajv);
    ajvByWire.set(wire, ajv);
  }
  return ajv;
}

function lookup(name: WireSchemaName, wire: Revision): object | undefined {
  const table = WIRE_SCHEMAS[wire];
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

function schemaFor(name: WireSchemaName, wire: Revision): object {
  const schema = lookup(name, wire);
  if (!schema) throw new Error(`No schema named "${name}" exists on wire ${wire}`);
  return schema;
}

/** The key a wire schema is registered under, and its export name in the precompiled module. */
export function wireSchemaKey(name: WireSchemaName, wire: Revision): string {
  return `${wire}/${name}`;
}

/** The document compiled for `name` on `wire`: our schema, under the 2020-12 dialect. */
export function wireSchemaDocument(name: WireSchemaName, wire: Revision): object {
  return { $schema: DIALECT, ...schemaFor(name, wire) };
}

const precompiled = new Map<Revision, PrecompiledModule | undefined>();
/** The build writes the precompiled modules next to their generator (src/schema/precompiled/generate.ts). */
const PRECOMPILED_NEAR = new URL('precompiled/generate.js', import.meta.url).href;

/** What a wire's precompiled module must have been compiled from: its schemas, the dialect and the options. */
export function wireFingerprint(wire: Revision): string {
  return fingerprintOf({ options: WIRE_AJV_OPTIONS, dialect: DIALECT, wire, schemas: WIRE_SCHEMAS[wire] });
}

function precompiledFor(wire: Revision): PrecompiledModule | undefined {
  if (!precompiled.has(wire))
    precompiled.set(wire, loadPrecompiled(wireModule(wire), wireFingerprint(wire), PRECOMPILED_NEAR));
  return precompiled.get(wire);
}

/** Precompiled by the build when it matches these schemas and this ajv; compiled here otherwise (tests from source). */
function validatorFor(name: WireSchemaName, wire: Revision): ValidateFunction {
  const key = wireSchemaKey(name, wire);
  let validate = validators.get(key);
  if (!validate) {
    validate = precompiledFor(wire)?.[key] ?? ajvFor(wire).compile(wireSchemaDocument(name, wire));
    compilations += 1;
    validators.set(key, validate);
  }
  return validate;
}

/**
 * An `if` error only restates that a `then`/`else` branch failed, and that branch's own errors are
 * always reported too. Branches may repeat a check their parent already made, hence the de-duplication.
 */
export function toIssues(errors: readonly ErrorObject[]): SchemaIssue[] {
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const message = error.message ?? error.keyword;
    const identity = JSON.stringify([error.instancePath, error.keyword, error.params, message]);
    if (seen.has(identity)) continue;
    seen.add(identity);
    issues.push({
      instancePath: error.instancePath,
      schemaPath: error.schemaPath,
      keyword: error.keyword,
      params: { ...error.params },
      message,
    });
    if (issues.length === MAX_ISSUES) break;
  }
  return issues;
}

export function hasWireSchema(name: WireSchemaName, wire: Revision): boolean {
  return lookup(name, wire) !== undefined;
}

/**
 * Validates `value` against our schema `name` for `wire`; returns `[]` when valid. Throws for a name the wire lacks.
 */
export function validateWire(name: WireSchemaName, wire: Revision, value: unknown): SchemaIssue[] {
  const validate = validatorFor(name, wire);
  if (validate(value)) return [];
  return toIssues(validate.errors ?? []);
}

/**
 * How many validators have been made ready so far in this process (each name/wire pair once, compiled or precompiled).
 */
export function compiledCount(): number {
  return compilations;
}
