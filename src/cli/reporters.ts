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
    }),
  );
  return async (event) => {
    if (event.type === 'check-started') reporters.forEach((r) => r.onStart?.(event.id));
    if (event.type === 'result') reporters.forEach((r) => r.onResult?.(event.result));
    if (event.type !== 'run-finished') return;
    // The files first, so that the console can name them.
    for (const reporter of reporters.filter((r) => r.name !== 'console')) {
      const path = await reporter.finish(event.report, options.outputDir);
      if (path) written.push(path);
    }
    for (const reporter of reporters.filter((r) => r.name === 'console')) await reporter.finish(event.report, options.outputDir);
  };
}
