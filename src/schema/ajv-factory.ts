import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';
import type { Dialect } from './tool-schema/dialect.js';

/** ajv classes by dialect family; draft-06 is validated by the draft-07 class. */
export type AjvFamily = '2020' | '2019' | 'draft-07';

export const FAMILY_OF: Record<Exclude<Dialect, 'draft-04'>, AjvFamily> = {
  '2020-12': '2020',
  '2019-09': '2019',
  'draft-07': 'draft-07',
  'draft-06': 'draft-07',
};

/** ajv is loaded on first use (createRequire), so importing a schema module costs nothing at start-up. */
const requireCjs = createRequire(import.meta.url);

export function newAjv(family: AjvFamily, options: Options): Ajv {
  switch (family) {
    case '2020': {
      const { Ajv2020 } = requireCjs('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
      return new Ajv2020(options);
    }
    case '2019': {
      const { Ajv2019 } = requireCjs('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js');
      return new Ajv2019(options);
    }
    case 'draft-07': {
      const { Ajv: Draft07 } = requireCjs('ajv') as typeof import('ajv');
      return new Draft07(options);
    }
  }
}

export function requireModule<T>(id: string): T {
  return requireCjs(id) as T;
}
