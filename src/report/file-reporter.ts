import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Reporter } from './types.js';
import type { RevisionsReport, RunReport } from '../model/report.js';

/**
 * A reporter that renders the finished report (of one run, or of a --revisions audit) into one file of the output
 * folder and returns its path.
 */
export function fileReporter(
  name: string,
  fileName: string,
  render: (report: RunReport) => string,
  renderRevisions: (report: RevisionsReport) => string,
): Reporter {
  const write = async (outputDir: string, text: string) => {
    await mkdir(outputDir, { recursive: true });
    const path = join(outputDir, fileName);
    await writeFile(path, text, 'utf8');
    return path;
  };
  return {
    name,
    finish: (report, outputDir) => write(outputDir, render(report)),
    finishRevisions: (report, outputDir) => write(outputDir, renderRevisions(report)),
  };
}
