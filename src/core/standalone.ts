import type { Ajv } from 'ajv';
import { requireModule } from '../ajv-factory.js';

type StandaloneCode = (ajv: Ajv, exports: Record<string, string>) => string;

/** CommonJS source of ajv standalone validators (`exports`: export name → schema key) and the fingerprint they match. */
export function standaloneModule(ajv: Ajv, exports: Record<string, string>, fingerprint: string): string {
  const standaloneCode = requireModule<{ default: StandaloneCode }>('ajv/dist/standalone').default;
  return `${standaloneCode(ajv, exports)}\nexports.fingerprint = ${JSON.stringify(fingerprint)};\n`;
}
