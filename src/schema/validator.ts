import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Wire } from '../runner/types.js';
import { WIRE_SCHEMAS, type WireSchemaName } from './wire/catalog.js';

export type { WireSchemaName } from './wire/catalog.js';

export interface SchemaIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

export const MAX_ISSUES = 50;

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const ajvByWire = new Map<Wire, Ajv2020>();
const validators = new Map<string, ValidateFunction>();
let compilations = 0;

/** ajv is loaded on first validation, so `--version`, `--help` and `--list` start fast. */
const requireCjs = createRequire(import.meta.url);

function ajvFor(wire: Wire): Ajv2020 {
  let ajv = ajvByWire.get(wire);
  if (!ajv) {
    const { Ajv2020: Ajv } = requireCjs('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = requireCjs('ajv-formats') as typeof import('ajv-formats').default;
    ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    ajvByWire.set(wire, ajv);
  }
  return ajv;
}

function lookup(name: WireSchemaName, wire: Wire): object | undefined {
  const table = WIRE_SCHEMAS[wire];
  return table !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

function schemaFor(name: WireSchemaName, wire: Wire): object {
  const schema = lookup(name, wire);
  if (!schema) throw new Error(`No schema named "${name}" exists on wire ${wire}`);
  return schema;
}

function validatorFor(name: WireSchemaName, wire: Wire): ValidateFunction {
  const key = `${wire}\u0000${name}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajvFor(wire).compile({ $schema: DIALECT, ...schemaFor(name, wire) });
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

export function hasWireSchema(name: WireSchemaName, wire: Wire): boolean {
  return lookup(name, wire) !== undefined;
}

/** Validates `value` against our schema `name` for `wire`; returns `[]` when valid. Throws for a name the wire lacks. */
export function validateWire(name: WireSchemaName, wire: Wire, value: unknown): SchemaIssue[] {
  const validate = validatorFor(name, wire);
  if (validate(value)) return [];
  return toIssues(validate.errors ?? []);
}

/** How many schemas have been compiled so far in this process (each name/wire pair compiles once). */
export function compiledCount(): number {
  return compilations;
}
