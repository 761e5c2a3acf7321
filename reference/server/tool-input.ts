import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { fingerprintOf, loadPrecompiled, type PrecompiledModule } from '../../src/core/precompiled.js';
import type { JsonSchema } from './tool-types.js';

const requireCjs = createRequire(import.meta.url);

/**
 * The schemas are ours and the audit's jsonschema.valid.* checks meta-validate them, so ajv does not compile its
 * meta-schema here (that alone cost each process's first call about 100 ms).
 */
const AJV_OPTIONS: Options = { allErrors: true, strict: true, validateSchema: false };

/** Written by `npm run build` next to this file: a standalone validator per known input schema, keyed by schemaKey. */
export const PRECOMPILED_INPUT_VALIDATORS = 'input-validators.cjs';

/** The ajv the reference server validates arguments with; `extra` options are for the build's precompilation. */
export function inputAjv(extra: Options = {}): Ajv2020 {
  const { Ajv2020: Ajv } = requireCjs('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv({ ...AJV_OPTIONS, ...extra });
  ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
  return ajv;
}

/**
 * What a precompiled module must have been compiled from (besides the ajv versions); its validators are keyed by
 * content.
 */
export function inputValidatorsFingerprint(): string {
  return fingerprintOf({ options: AJV_OPTIONS, keywords: ['x-mcp-header'] });
}

export function schemaKey(schema: JsonSchema): string {
  return `s${createHash('sha256').update(canonicalJson(schema)).digest('hex').slice(0, 32)}`;
}

let precompiled: PrecompiledModule | null | undefined;
let runtime: Ajv2020 | undefined;

function precompiledValidator(key: string): ValidateFunction | undefined {
  if (precompiled === undefined)
    precompiled = loadPrecompiled(PRECOMPILED_INPUT_VALIDATORS, inputValidatorsFingerprint(), import.meta.url) ?? null;
  return precompiled?.[key];
}

/** The build's validator for this schema, else one compiled now (ajv loads on the first call that needs it). */
function validatorFor(schema: JsonSchema): ValidateFunction {
  const known = precompiledValidator(schemaKey(schema));
  if (known) return known;
  runtime ??= inputAjv();
  return runtime.compile(schema);
}

/** ajv's errorsText, without needing an ajv instance. */
function errorsText(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'No errors';
  return errors.map((e) => `arguments${e.instancePath} ${e.message ?? ''}`).join('; ');
}

/** Returns a description of what is wrong with the arguments, or undefined when they are valid. */
export type InputCheck = (args: Record<string, unknown>) => string | undefined;

/** Compiles a tool's inputSchema once; the returned check is reused for every call. */
export function compileInputCheck(toolName: string, schema: JsonSchema): InputCheck {
  const validate = validatorFor(schema);
  return (args) =>
    validate(args) ? undefined : `Invalid arguments for tool ${toolName}: ${errorsText(validate.errors)}`;
}
