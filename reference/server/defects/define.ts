import type { InitializeRevision } from '../revisions.js';
import type { Seams } from './seams.js';
import type { Transport } from './seams/handler.js';

export interface DefectDefinition {
  name: string;
  /** ID of the check that must catch this defect; null for chaos behaviours and conforming variants. */
  breaks: string | null;
  description: string;
  /** Transports the defect exists on; absent means both. */
  transports?: Transport[];
  /** A misbehaviour for bad-target tests rather than a single broken requirement. */
  chaos?: boolean;
  /** Not a defect: a conforming behaviour some check once misjudged (its test shows that it no longer does). */
  conforming?: boolean;
  /** Audit flags the defect needs in order to show (e.g. the tool that changes the tool set). */
  auditArgs?: readonly string[];
  /**
   * The initialize revision whose rule the defect breaks: the server takes it only when started as that revision or a
   * newer initialize one (--protocol-version), and the defect tests start it as this one.
   */
  revision?: InitializeRevision;
  /** What the defect does: its hook at each seam of the server it spoils (`./seams.ts`). */
  at?: Seams;
}

export interface NamedDefect<Name extends string> extends DefectDefinition {
  name: Name;
}

export function defineDefects<const Name extends string>(
  list: readonly NamedDefect<Name>[],
): readonly NamedDefect<Name>[] {
  return list;
}

/** How an audit changes the reference server's tool set: toggle_beta_tools adds or removes beta_forecast. */
export const LIST_CHANGED_TRIGGER_ARGS: readonly string[] = ['--list-changed-trigger', 'toggle_beta_tools'];
