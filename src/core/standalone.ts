import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';

type StandaloneCode = (ajv: Ajv, exports: Record<string, string>) => string;

/**
 * CommonJS source of ajv standalone validators (`exports`: export name → schema key) and the fingerprint they match.
 */
export function standaloneModule(ajv: Ajv, exports: Record<string, string>, fingerprint: string): string {
  // From the ajv package itself: the build generates before it bundles the one-file ajv
  // (scripts/precompile-validators.mjs).
  const standaloneCode = (createRequire(import.meta.url)('ajv/dist/standalone') as { default: StandaloneCode }).default;
  return `${standaloneCode(ajv, exports)}\nexports.fingerprint = ${JSON.stringify(fingerprint)};\n`;
}
