export const REPORTER_NAMES = ['console', 'json', 'junit', 'sarif', 'markdown', 'html', 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

export function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}

/**
 * Reporters that write into --output-dir (console and github write to stdout; github may append to the step summary).
 */
export const FILE_REPORTER_NAMES: readonly ReporterName[] = ['json', 'junit', 'sarif', 'markdown', 'html'];
