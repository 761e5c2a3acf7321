import { composeHooks } from '../../kit/hooks.js';
import type { Defect } from './define.js';
import type { ClientSeams } from './seams.js';

/** The defects the client was started with, as their hooks composed per seam. */
export class Defects {
  /** Every seam: the active defects' hooks there, called in table order; the first result not undefined is kept. */
  readonly at: Required<ClientSeams>;

  constructor(active: readonly Defect[]) {
    this.at = composeHooks(active.map((defect) => defect.at));
  }
}

export const NO_DEFECTS = new Defects([]);
