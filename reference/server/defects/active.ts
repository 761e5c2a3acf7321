import type { DefectDefinition } from './define.js';
import type { Seams } from './seams.js';

type Hook = (...args: never[]) => unknown;

const none = (): undefined => undefined;

/** The defects a server was started with, and their hooks composed per seam. */
export class ActiveDefects {
  readonly names: readonly string[];
  /** Every seam: the active defects' hooks there, called in table order; the first result not undefined is kept. */
  readonly at: Required<Seams>;

  constructor(readonly definitions: readonly DefectDefinition[]) {
    this.names = definitions.map((defect) => defect.name);
    const composed: Record<string, Hook> = {};
    const seams = new Set(definitions.flatMap((defect) => Object.keys(defect.at ?? {})));
    for (const seam of seams) {
      const hooks = definitions.flatMap((defect) => {
        const hook = (defect.at as Record<string, Hook | undefined> | undefined)?.[seam];
        return hook ? [hook] : [];
      });
      composed[seam] = (...args: never[]) => {
        let kept: unknown;
        for (const hook of hooks) {
          const result = hook(...args);
          if (kept === undefined) kept = result;
        }
        return kept;
      };
    }
    this.at = new Proxy(composed, { get: (target, seam: string) => target[seam] ?? none }) as Required<Seams>;
  }

  get size(): number {
    return this.names.length;
  }
}

export const NO_DEFECTS = new ActiveDefects([]);
