export { prepareSource, type Arguments, type ArgumentSource, type PreparedSource } from './argument-source.js';
export { ValidArguments, invalidCases, type InvalidCase } from './arbitraries.js';
export { Limiter } from './limiter.js';
export { DEFAULT_PROPERTY_OPTIONS, type PropertyOptions } from './options.js';
export { formatReplayToken, parseReplayToken, shellQuote, type ReplayTarget } from './replay.js';
export { search, SLOW_SEARCH, type FailedCase, type SlowStop, type PropertySpec, type SearchResult } from './search.js';
export { DEFAULT_RUNS, DEFAULT_SEED, derivedSeed } from './seeds.js';
