import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv, Options } from 'ajv';
import { requireModule, type AjvFamily } from '../ajv-factory.js';
import { META_DIALECTS, META_SCHEMA_ID, metaFingerprint, metaSchemaAjv } from '../tool-schema/meta-validators.js';
import { WIRE_AJV_OPTIONS, wireFingerprint, wireSchemaDocument, wireSchemaKey } from '../validator.js';
import { WIRE_SCHEMAS, type WireSchemaName } from '../wire/schemas-by-revision.js';
import { REVISIONS, type Revision } from '../../core/revision.js';
import { metaModule, wireModule } from '../../core/precompiled.js';
import { standaloneModule } from '../../core/standalone.js';

/** Standalone code gets the format functions from ajv-formats at run time, as a compiled validator does. */
function standaloneOptions(): Options {
  const { _ } = requireModule<typeof import('ajv')>('ajv');
  return { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } };
}

/** CommonJS source exporting a validator per schema of `wire` under `wire/Name`, and the fingerprint of its inputs. */
export function wireValidatorsModule(wire: Revision): string {
  const { Ajv2020 } = requireModule<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
  const addFormats = requireModule<typeof import('ajv-formats').default>('ajv-formats');
  const ajv = new Ajv2020({ ...WIRE_AJV_OPTIONS, ...standaloneOptions() });
  addFormats(ajv);
  const exports: Record<string, string> = {};
  for (const name of Object.keys(WIRE_SCHEMAS[wire]) as WireSchemaName[]) {
    const key = wireSchemaKey(name, wire);
    ajv.addSchema(wireSchemaDocument(name, wire), key);
    exports[key] = key;
  }
  return standaloneModule(ajv as unknown as Ajv, exports, wireFingerprint(wire));
}

/** CommonJS source exporting the meta-schema validator of each dialect of `family`, and the fingerprint. */
export function metaValidatorsModule(family: AjvFamily): string {
  const ajv = metaSchemaAjv(family, standaloneOptions());
  const exports = Object.fromEntries(META_DIALECTS[family].map((dialect) => [dialect, META_SCHEMA_ID[dialect]]));
  return standaloneModule(ajv as unknown as Ajv, exports, metaFingerprint(family));
}

/** Writes every precompiled module next to this generator (dist/src/schema/precompiled/ after the build). */
export function writePrecompiledValidators(directory = dirname(fileURLToPath(import.meta.url))): string[] {
  mkdirSync(directory, { recursive: true });
  const files: [string, string][] = [
    ...REVISIONS.map((wire): [string, string] => [wireModule(wire), wireValidatorsModule(wire)]),
    ...(Object.keys(META_DIALECTS) as AjvFamily[]).map((family): [string, string] => [
      metaModule(family),
      metaValidatorsModule(family),
    ]),
  ];
  for (const [file, text] of files) writeFileSync(join(directory, file), text);
  return files.map(([file]) => join(directory, file));
}
