import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FleetReport } from '../../model/fleet.js';
import { FLEET_REPORT_FILES, fleetHtml, fleetJunit, fleetMarkdown, fleetSarif } from './index.js';
import { boundReport } from '../../report/json.js';
import type { ReporterName } from '../../report/names.js';

export const FLEET_JSON_FILE = 'fleet.json';

/** fleet.json: the fleet's report, each server's own report bounded as its report.json is. */
export function renderFleetJson(report: FleetReport): string {
  const servers = report.servers.map((server) =>
    server.report ? { ...server, report: boundReport(server.report) } : server,
  );
  return `${JSON.stringify({ ...report, servers }, null, 2)}\n`;
}

export interface FleetFileOptions {
  sarifArtifact?: string;
  junitProperties?: boolean;
}

/** The fleet's report files the reporters name, in --output-dir beside servers/; returns the paths written. */
export async function writeFleetFiles(
  report: FleetReport,
  outputDir: string,
  reporters: readonly ReporterName[],
  options: FleetFileOptions = {},
): Promise<string[]> {
  const files: [ReporterName, string, () => string][] = [
    ['json', FLEET_JSON_FILE, () => renderFleetJson(report)],
    ['junit', FLEET_REPORT_FILES.junit, () => fleetJunit(report, { extended: options.junitProperties ?? false })],
    [
      'sarif',
      FLEET_REPORT_FILES.sarif,
      () =>
        String(
          JSON.stringify(
            fleetSarif(report, options.sarifArtifact === undefined ? {} : { artifact: options.sarifArtifact }),
            null,
            2,
          ),
        ) + `\n`,
    ],
    ['markdown', FLEET_REPORT_FILES.markdown, () => fleetMarkdown(report)],
    ['html', FLEET_REPORT_FILES.html, () => fleetHtml(report)],
  ];
  const written: string[] = [];
  await mkdir(outputDir, { recursive: true });
  for (const [name, file, render] of files) {
    if (!reporters.includes(name)) continue;
    const path = join(outputDir, file);
    await writeFile(path, render(), 'utf8');
    written.push(path);
  }
  return written;
}
