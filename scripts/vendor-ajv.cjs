// Entry of dist/vendor/ajv.cjs (scripts/bundle.mjs): the ajv modules the CLI requires while it audits, as one file.
// Through Node's CommonJS loader ajv's ~70 files took ~25 ms more to load than this one file; each module inside
// is still evaluated only when first required.
const modules = {
  ajv: () => require('ajv'),
  'ajv/dist/2020.js': () => require('ajv/dist/2020.js'),
  'ajv/dist/2019.js': () => require('ajv/dist/2019.js'),
  'ajv-formats': () => require('ajv-formats'),
  'ajv/dist/refs/json-schema-draft-06.json': () => require('ajv/dist/refs/json-schema-draft-06.json'),
  // The document only (ajv-draft-04 is a devDependency): src/schema/tool-schema/official-meta-schemas.ts reads it.
  'ajv-draft-04/dist/refs/json-schema-draft-04.json': () => require('ajv-draft-04/dist/refs/json-schema-draft-04.json'),
};

/** The module `id` from this bundle, or undefined for one it does not carry. */
exports.vendored = (id) => modules[id]?.();
