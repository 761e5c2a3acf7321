import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FleetReport } from '../model/fleet.js';
import { boundReport } from './json.js';

export const FLEET_JSON_FILE = 'fleet.json';

/** fleet.json: the fleet's report, each server's own report bounded as its report.json is. */
export function renderFleetJson(report: FleetReport): string {
  const servers = report.servers.map((server) => (server.report ? { ...server, report: boundReport(server.report) } : server));
  return `${JSON.stringify({ ...report, servers }, null, 2)}\n`;
}

export async function writeFleetJson(report: FleetReport, outputDir: string): Promise<string> {
  await mkdir(outputDir, { recursive: true });
  const path = join(outputDir, FLEET_JSON_FILE);
  await writeFile(path, renderFleetJson(report), 'utf8');
  return path;
}
