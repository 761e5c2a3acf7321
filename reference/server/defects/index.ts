import { isInitializeRevision, type Revision } from '../revisions.js';
import { ActiveDefects } from './active.js';
import { CACHING_DEFECTS } from './caching.js';
import { CHAOS_DEFECTS } from './chaos.js';
import { CONFORMING_DEFECTS } from './conforming.js';
import type { DefectDefinition } from './define.js';
import type { Transport } from './seams/handler.js';
import { DEFINITIONS_DEFECTS } from './definitions.js';
import { DISCOVERY_DEFECTS } from './discovery.js';
import { EFFECTS_DEFECTS } from './effects.js';
import { HTTP_DEFECTS } from './http.js';
import { LISTING_DEFECTS } from './listing.js';
import { MRTR_DEFECTS } from './mrtr.js';
import { NOTIFICATIONS_DEFECTS } from './notifications.js';
import { PROPERTY_DEFECTS } from './property.js';
import { REQUEST_META_DEFECTS } from './request-meta.js';
import { RESULTS_DEFECTS } from './results.js';
import { SUBSCRIPTIONS_DEFECTS } from './subscriptions.js';
import { TOOL_CALLS_DEFECTS } from './tool-calls.js';
import { WIRE_DEFECTS } from './wire.js';

export { ActiveDefects, NO_DEFECTS } from './active.js';
export { LIST_CHANGED_TRIGGER_ARGS, type DefectDefinition } from './define.js';

/** Every defect of the reference server: one module per area of suites/ (a defect sits with the checks it breaks). */
export const DEFECTS = [
  ...DISCOVERY_DEFECTS,
  ...LISTING_DEFECTS,
  ...DEFINITIONS_DEFECTS,
  ...EFFECTS_DEFECTS,
  ...CACHING_DEFECTS,
  ...RESULTS_DEFECTS,
  ...REQUEST_META_DEFECTS,
  ...TOOL_CALLS_DEFECTS,
  ...MRTR_DEFECTS,
  ...NOTIFICATIONS_DEFECTS,
  ...SUBSCRIPTIONS_DEFECTS,
  ...HTTP_DEFECTS,
  ...PROPERTY_DEFECTS,
  ...WIRE_DEFECTS,
  ...CHAOS_DEFECTS,
  ...CONFORMING_DEFECTS,
];

export type DefectName = (typeof DEFECTS)[number]['name'];

export function findDefect(name: string): DefectDefinition | undefined {
  return (DEFECTS as readonly DefectDefinition[]).find((defect) => defect.name === name);
}

export function isDefectName(name: string): name is DefectName {
  return findDefect(name) !== undefined;
}

/** The server's defects by name, in table order (the order their hooks run in). */
export function activeDefects(names: Iterable<DefectName>): ActiveDefects {
  const wanted = new Set<string>(names);
  return new ActiveDefects((DEFECTS as readonly DefectDefinition[]).filter((defect) => wanted.has(defect.name)));
}

export function defectAvailableOn(defect: DefectDefinition, transport: Transport): boolean {
  return defect.transports === undefined || defect.transports.includes(transport);
}

/**
 * Whether a server started as this revision has the defect's rule to break: a defect of an initialize revision needs
 * that one or a newer one.
 */
export function defectAvailableAs(defect: DefectDefinition, revision: Revision): boolean {
  return defect.revision === undefined || (isInitializeRevision(revision) && revision >= defect.revision);
}

export function formatDefectList(): string {
  return DEFECTS.map((defect) => `${defect.name}\t${defect.breaks ?? '-'}\t${defect.description}`).join('\n');
}
