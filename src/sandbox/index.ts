export { Sandbox, type SandboxRequest, type SpawnSpec } from './sandbox.js';
export { SandboxError } from './errors.js';
export type { SandboxState } from './effects.js';
export { sandboxUnavailable } from './availability.js';
export { planOverlays, type OverlayPlan, type OverlayPlanInput, type PathProbe } from './plan.js';
export { fillCacheCommand, looksLikeMissingNetwork } from './package-caches.js';
