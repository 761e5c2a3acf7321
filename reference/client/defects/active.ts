import { composeHooks } from '../../kit/hooks.js';
import type { Defect } from './define.js';
import type { ClientSeams } from './seams.js';

/** The defects the client was started with, and their hooks composed per seam. */
export class Defects {
  /** Every seam: the active defects' hooks there, called in table order; the first result not undefined is kept. */
  readonly at: Required<ClientSeams>;

  constructor(private readonly active: ReadonlyMap<string, Defect>) {
    this.at = composeHooks([...active.values()].map((defect) => defect.at));
  }

  /** The names of the active defects, in table order. */
  get names(): string[] {
    return [...this.active.keys()];
  }
}

export const NO_DEFECTS = new Defects(new Map());
