import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';
import type { Dialect } from './tool-schema/dialect.js';

/**
 * ajv classes by dialect family; draft-06 (and draft-04's meta-schema, see official-meta-schemas.ts) use the draft-07
 * class.
 */
export type AjvFamily = '2020' | '2019' | 'draft-07';

export const FAMILY_OF: Record<Dialect, AjvFamily> = {
  '2020-12': '2020',
  '2019-09': '2019',
  'draft-07': 'draft-07',
  'draft-06': 'draft-07',
  'draft-04': 'draft-07',
};

/** ajv is loaded on first use (createRequire), so importing a schema module costs nothing at start-up. */
const requireCjs = createRequire(import.meta.url);

type Vendored = (id: string) => unknown;
let vendored: Vendored | null | undefined;

/**
 * The build's one-file bundle of ajv and ajv-formats (dist/vendor/ajv.cjs, from scripts/vendor-ajv.cjs), when there
 * is one next to the compiled code; the packages themselves otherwise (tests run the sources).
 */
function vendoredModule(id: string): unknown {
  if (vendored === undefined) {
    try {
      vendored = (requireCjs('../../vendor/ajv.cjs') as { vendored: Vendored }).vendored;
    } catch {
      vendored = null;
    }
  }
  return vendored?.(id);
}

export function newAjv(family: AjvFamily, options: Options): Ajv {
  switch (family) {
    case '2020': {
      const { Ajv2020 } = requireModule<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
      return new Ajv2020(options);
    }
    case '2019': {
      const { Ajv2019 } = requireModule<typeof import('ajv/dist/2019.js')>('ajv/dist/2019.js');
      return new Ajv2019(options);
    }
    case 'draft-07': {
      const { Ajv: Draft07 } = requireModule<typeof import('ajv')>('ajv');
      return new Draft07(options);
    }
  }
}

export function requireModule<T>(id: string): T {
  return (vendoredModule(id) ?? requireCjs(id)) as T;
}
