import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv } from 'ajv';
import { standaloneModule } from '../../src/core/standalone.js';
import { BETA_DEFINITION } from './beta-tools.js';
import { SEARCH_DEFECT_DEFINITIONS } from './defects/search-tools.js';
import { inputAjv, inputValidatorsFingerprint, PRECOMPILED_INPUT_VALIDATORS, schemaKey } from './tool-input.js';
import { TOOL_DEFINITIONS } from './tools.js';

/** CommonJS source with a standalone validator for the input schema of every tool the reference server can call. */
export function referenceInputValidatorsModule(): string {
  const ajv = inputAjv({ code: { source: true } });
  const exports: Record<string, string> = {};
  for (const definition of [...TOOL_DEFINITIONS, BETA_DEFINITION, ...SEARCH_DEFECT_DEFINITIONS]) {
    const key = schemaKey(definition.inputSchema);
    if (exports[key]) continue;
    ajv.addSchema(definition.inputSchema, key);
    exports[key] = key;
  }
  return standaloneModule(ajv as unknown as Ajv, exports, inputValidatorsFingerprint());
}

/** Writes the module next to tool-input (dist/reference/server/ after the build). */
export function writeReferenceInputValidators(directory = dirname(fileURLToPath(import.meta.url))): string {
  const file = join(directory, PRECOMPILED_INPUT_VALIDATORS);
  writeFileSync(file, referenceInputValidatorsModule());
  return file;
}
