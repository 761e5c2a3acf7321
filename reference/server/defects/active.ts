import { composeHooks } from '../../kit/hooks.js';
import type { DefectDefinition } from './define.js';
import type { Seams } from './seams.js';

/** The defects a server was started with, and their hooks composed per seam. */
export class ActiveDefects {
  readonly names: readonly string[];
  /** Every seam: the active defects' hooks there, called in table order; the first result not undefined is kept. */
  readonly at: Required<Seams>;

  constructor(readonly definitions: readonly DefectDefinition[]) {
    this.names = definitions.map((defect) => defect.name);
    this.at = composeHooks(definitions.map((defect) => defect.at));
  }

  get size(): number {
    return this.names.length;
  }
}

export const NO_DEFECTS = new ActiveDefects([]);
