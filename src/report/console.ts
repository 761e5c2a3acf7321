import type { CheckResult } from '../runner/types.js';
import { colorEnabled, palette } from './color.js';
import { areaHeading, checkLines } from './console-lines.js';
import { summaryLines } from './console-summary.js';
import type { Reporter, RunReport } from './types.js';

export interface ConsoleReporterOptions {
  stream?: NodeJS.WritableStream;
  /** Defaults to {@link colorEnabled} for the stream. */
  color?: boolean;
  /** Also prints pass messages and one line per evidence item. */
  verbose?: boolean;
  /** Paths the other reporters wrote, read when the summary is printed. */
  writtenPaths?: () => readonly string[];
}

/** Live lines per finished check, then a summary. Every target-quoting text is made terminal-safe. */
export function createConsoleReporter(options: ConsoleReporterOptions = {}): Reporter {
  const stream = options.stream ?? process.stdout;
  const paint = palette(options.color ?? colorEnabled(stream));
  const verbose = options.verbose ?? false;
  let lastArea: string | undefined;
  let printedAny = false;

  const write = (lines: readonly string[]): void => {
    stream.write(lines.map((line) => `${line}\n`).join(''));
  };

  const print = (result: CheckResult): void => {
    const lines: string[] = [];
    if (result.area !== lastArea) {
      lines.push(...(printedAny ? [''] : []), areaHeading(result.area, paint));
      lastArea = result.area;
    }
    lines.push(...checkLines(result, paint, verbose));
    printedAny = true;
    write(lines);
  };

  return {
    name: 'console',
    onResult: print,
    async finish(report: RunReport) {
      // A report that was not produced live (e.g. replayed from a file) still gets its lines.
      if (!printedAny) report.checks.forEach(print);
      write(summaryLines(report, paint, options.writtenPaths?.() ?? []));
      return undefined;
    },
  };
}
