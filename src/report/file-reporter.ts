import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Reporter } from './types.js';
import type { RunReport } from '../model/report.js';

/** A reporter that renders the finished report into one file of the output folder and returns its path. */
export function fileReporter(name: string, fileName: string, render: (report: RunReport) => string): Reporter {
  return {
    name,
    async finish(report, outputDir) {
      await mkdir(outputDir, { recursive: true });
      const path = join(outputDir, fileName);
      await writeFile(path, render(report), 'utf8');
      return path;
    },
  };
}
