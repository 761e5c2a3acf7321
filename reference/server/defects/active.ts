import { composeHooks } from '../../kit/hooks.js';
import type { DefectDefinition } from './define.js';
import type { Seams } from './seams.js';

/** The defects a server was started with, as their hooks composed per seam. */
export class ActiveDefects {
  /** Every seam: the active defects' hooks there, called in table order; the first result not undefined is kept. */
  readonly at: Required<Seams>;

  constructor(definitions: readonly DefectDefinition[]) {
    this.at = composeHooks(definitions.map((defect) => defect.at));
  }
}

export const NO_DEFECTS = new ActiveDefects([]);
