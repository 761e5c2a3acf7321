// Build step after tsc: ajv standalone validators for our own wire schemas and the JSON Schema meta-schemas,
// so an audit does not spend its first few hundred milliseconds compiling them; and the reference server's tool
// input validators, so its first tools/call does not load ajv's compiler.
import { writePrecompiledValidators } from '../dist/src/schema/precompiled/generate.js';
import { writeReferenceInputValidators } from '../dist/src/reference-server/precompile-inputs.js';

writePrecompiledValidators();
writeReferenceInputValidators();
