// Build step after tsc: ajv standalone validators for our own wire schemas and the JSON Schema meta-schemas,
// so an audit does not spend its first few hundred milliseconds compiling them.
import { writePrecompiledValidators } from '../dist/src/schema/precompiled/generate.js';

writePrecompiledValidators();
