/** The tool set of a run compared with a --lock file. */
export interface LockComparison {
  file: string;
  status: 'match' | 'changed';
  added: string[];
  removed: string[];
  changed: { tool: string; fields: string[] }[];
}
