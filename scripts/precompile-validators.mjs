// Build step after tsc: ajv standalone validators for our own wire schemas and the JSON Schema meta-schemas,
// so an audit does not spend its first few hundred milliseconds compiling them; and the reference server's tool
// input validators, so its first tools/call does not load ajv's compiler.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Generated from the ajv packages themselves: a one-file ajv left by an earlier build (scripts/bundle.mjs writes it
// afterwards) could be of an older ajv.
rmSync(fileURLToPath(new URL('../dist/vendor', import.meta.url)), { recursive: true, force: true });
const { writePrecompiledValidators } = await import('../dist/src/schema/precompiled/generate.js');
const { writeReferenceInputValidators } = await import('../dist/src/reference-server/precompile-inputs.js');

writePrecompiledValidators();
writeReferenceInputValidators();
