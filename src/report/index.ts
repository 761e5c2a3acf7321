import { createConsoleReporter, type ConsoleReporterOptions } from './console.js';
import { createGithubReporter } from './github.js';
import { createHtmlReporter } from './html.js';
import { createJsonReporter } from './json.js';
import { createJunitReporter } from './junit.js';
import { createMarkdownReporter } from './markdown.js';
import { createSarifReporter } from './sarif.js';
import type { Reporter } from './types.js';

export { colorEnabled } from './color.js';

import type { ReporterName } from './names.js';

export { REPORTER_NAMES, isReporterName, type ReporterName } from './names.js';

export interface ReporterOptions {
  stream?: NodeJS.WritableStream;
  color?: boolean;
  verbose?: boolean;
  /** Console only: failures only (--quiet). */
  quiet?: boolean;
  /** Console only: progress lines while checks run. */
  progress?: ConsoleReporterOptions['progress'];
  /** Console only: paths the other reporters wrote, listed in the summary. */
  writtenPaths?: () => readonly string[];
  /**
   * JUnit only: per-testcase <properties> (read by GitLab and Jenkins' JUnit plugin; outside the Jenkins xUnit XSD).
   */
  junitProperties?: boolean;
  /** SARIF only: the repository-relative path findings are filed under. */
  sarifArtifact?: string;
  /** Markdown only: the HTML report written in the same run, to link into. */
  htmlReport?: string;
  /** Markdown and GitHub's step summary: the JSON report written in the same run, which holds every finding whole. */
  jsonReport?: string;
}

const FACTORIES: Record<ReporterName, (options: ReporterOptions) => Reporter> = {
  console: (options) => createConsoleReporter(options),
  json: () => createJsonReporter(),
  junit: (options) => createJunitReporter({ extended: options.junitProperties ?? false }),
  sarif: (options) =>
    createSarifReporter({ ...(options.sarifArtifact !== undefined ? { artifact: options.sarifArtifact } : {}) }),
  markdown: (options) =>
    createMarkdownReporter({
      ...(options.htmlReport !== undefined ? { htmlReport: options.htmlReport } : {}),
      ...(options.jsonReport !== undefined ? { jsonReport: options.jsonReport } : {}),
    }),
  html: () => createHtmlReporter(),
  github: (options) =>
    createGithubReporter({
      ...(options.stream ? { stream: options.stream } : {}),
      ...(options.jsonReport !== undefined ? { jsonReport: options.jsonReport } : {}),
    }),
};

export function createReporter(name: ReporterName, options: ReporterOptions = {}): Reporter {
  return FACTORIES[name](options);
}
