import { ALL_CHECKS } from '../../suites/index.js';
import { loadCatalog } from '../catalog/requirements-catalog.js';
import type { CatalogRow } from '../catalog/coverage-notes.js';
import type { CheckResult } from '../model/check.js';
import { coverageFromCatalog, coverageFromRegistry, type CoverageFigure } from './html/coverage.js';
import { renderHtmlReport } from './html/page.js';
import { renderHtmlRevisions } from './html/revisions-page.js';
import { fileReporter } from './file-reporter.js';
import type { Reporter } from './types.js';

export { renderHtmlReport, type HtmlReportOptions } from './html/page.js';
export { renderHtmlRevisions } from './html/revisions-page.js';
export { outcomeAnchors } from './html/checks.js';
export type { CoverageFigure } from './html/coverage.js';

export const HTML_REPORT_FILE = 'report.html';

/**
 * The catalog ships beside the build (data/requirements-catalog.json); a copy without it falls back to the registry.
 */
function catalogIfPresent(): CatalogRow[] | undefined {
  try {
    return loadCatalog();
  } catch {
    return undefined;
  }
}

export function registryCoverage(
  results: readonly CheckResult[],
  catalog: readonly CatalogRow[] | undefined = catalogIfPresent(),
): CoverageFigure {
  return catalog === undefined
    ? coverageFromRegistry(ALL_CHECKS, results)
    : coverageFromCatalog(ALL_CHECKS, catalog, results);
}

export function createHtmlReporter(): Reporter {
  return fileReporter(
    'html',
    HTML_REPORT_FILE,
    (report) => renderHtmlReport(report, { coverage: registryCoverage(report.checks) }),
    renderHtmlRevisions,
  );
}
