export { compileArgumentSchema, isUndecided, type ArgumentValidator, type CompiledArgumentSchema } from './validate.js';
export { sampleArguments } from './sample.js';
export { invalidArguments, pickInvalidArguments, type InvalidArguments } from './mutate.js';
