type Hook = (...args: never[]) => unknown;

const none = (): undefined => undefined;

/**
 * Every seam of `Seams` with the hooks of each set composed, in the sets' order: each is called, and the first result
 * that is not undefined is kept; a seam no set hooks is a no-op that returns undefined.
 */
export function composeHooks<Seams extends object>(sets: readonly (Seams | undefined)[]): Required<Seams> {
  const composed: Record<string, Hook> = {};
  const seams = new Set(sets.flatMap((set) => Object.keys(set ?? {})));
  for (const seam of seams) {
    const hooks = sets.flatMap((set) => {
      const hook = (set as Record<string, Hook | undefined> | undefined)?.[seam];
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
  return new Proxy(composed, { get: (target, seam: string) => target[seam] ?? none }) as Required<Seams>;
}
