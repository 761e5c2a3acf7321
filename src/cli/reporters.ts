import type { AuditHandler } from '../engine/events.js';
import { createReporter, colorEnabled } from '../report/index.js';
import type { longestWait } from '../report/console-progress.js';
import type { Reporter } from '../report/types.js';
import type { CliOptions } from './args.js';

/** The reporters the options name, as subscribers of the audit: live results, then every report written at the end. */
export function reportersOf(options: CliOptions, waitingOn: () => ReturnType<typeof longestWait>): AuditHandler {
  const written: string[] = [];
  const reporters: Reporter[] = options.reporters.map((name) =>
    createReporter(name, {
      stream: process.stdout,
      color: options.color ?? colorEnabled(process.stdout),
      verbose: options.verbose,
      quiet: options.quiet,
      progress: { interactive: (process.stdout as { isTTY?: boolean }).isTTY === true, waitingOn },
      junitProperties: options.junitProperties,
      writtenPaths: () => written,
      ...(options.sarifArtifact !== undefined ? { sarifArtifact: options.sarifArtifact } : {}),
      ...(options.reporters.includes('html') ? { htmlReport: 'report.html' } : {}),
      ...(options.reporters.includes('json') ? { jsonReport: 'report.json' } : {}),
    }),
  );
  // The files first, so that the console can name them.
  const writeAll = async (finish: (reporter: Reporter) => Promise<string | undefined>) => {
    for (const reporter of reporters.filter((r) => r.name !== 'console')) {
      const path = await finish(reporter);
      if (path) written.push(path);
    }
    for (const reporter of reporters.filter((r) => r.name === 'console')) await finish(reporter);
  };
  // In a --revisions audit each run's end is only shown; the files are written once, with every run and the matrix.
  let revisions = false;
  return async (event) => {
    switch (event.type) {
      case 'run-started':
        return;
      case 'check-started':
        return reporters.forEach((r) => r.onStart?.(event.id));
      case 'result':
        return reporters.forEach((r) => r.onResult?.(event.result));
      case 'run-finished':
        if (revisions) return reporters.forEach((r) => r.onRunFinished?.(event.report));
        return writeAll((r) => r.finish(event.report, options.outputDir));
      case 'revisions-started':
        revisions = true;
        return;
      case 'revision-started':
        return reporters.forEach((r) => r.onRevision?.(event.revision));
      case 'revision-not-audited':
        return reporters.forEach((r) => r.onRevisionNotAudited?.(event.revision, event.status, event.reason));
      case 'revisions-finished':
        return writeAll((r) => r.finishRevisions(event.report, options.outputDir));
    }
  };
}
