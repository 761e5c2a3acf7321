import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

/**
 * Validators of our own schemas are precompiled by the build (ajv standalone code, `npm run build`) next to the
 * module that writes them (the auditor's: src/schema/precompiled/generate.ts; the reference server's: its tool-input).
 * Each module carries the fingerprint of what it was compiled from; one that does not match (or is missing, as when
 * tests run from source) is ignored and the schemas are compiled at run time instead.
 */
const requireCjs = createRequire(import.meta.url);

export type PrecompiledModule = Readonly<Record<string, ValidateFunction | undefined>>;

/** Wire schemas of one revision. */
export function wireModule(wire: string): string {
  return `wire-validators-${wire}.cjs`;
}

/** Meta-schemas of one ajv family (2020, 2019, draft-07). */
export function metaModule(family: string): string {
  return `meta-validators-${family}.cjs`;
}

/** SHA-256 of what a module is compiled from, including the versions of ajv and ajv-formats. */
export function fingerprintOf(inputs: unknown): string {
  const versions = ['ajv/package.json', 'ajv-formats/package.json'].map(
    (id) => (requireCjs(id) as { version: string }).version,
  );
  return createHash('sha256').update(JSON.stringify({ versions, inputs })).digest('hex');
}

/**
 * The module's validators when it exists and was compiled from exactly `fingerprint`'s inputs; undefined otherwise.
 * `file` is looked up next to the module whose URL is `near`.
 */
export function loadPrecompiled(file: string, fingerprint: string, near: string): PrecompiledModule | undefined {
  let loaded: { fingerprint?: unknown } & Record<string, unknown>;
  try {
    loaded = createRequire(near)(`./${file}`) as typeof loaded;
  } catch {
    return undefined;
  }
  return loaded.fingerprint === fingerprint ? (loaded as PrecompiledModule) : undefined;
}
