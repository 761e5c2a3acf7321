export const REPORTER_NAMES = ['console', 'json', 'junit', 'sarif', 'markdown', 'html', 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

export function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}
