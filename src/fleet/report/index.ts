/**
 * The fleet's report files, each a pure function of the FleetReport (fleet.json's content): the caller writes them.
 * Each server's own reports live under `<output-dir>/servers/<safe-name>/`; FleetServerResult.reportFile is the
 * relative path of its report.json, and its HTML report is `report.html` beside it (SERVER_HTML_REPORT).
 */
import { HTML_REPORT_FILE } from '../../report/html.js';
import { JUNIT_REPORT_FILE } from '../../report/junit.js';
import { MARKDOWN_REPORT_FILE } from '../../report/markdown.js';
import { SARIF_REPORT_FILE } from '../../report/sarif.js';

export { fleetJunit, FLEET_FINDINGS_SUITE } from './junit.js';
export { fleetSarif, FLEET_FINDINGS_CATEGORY, serverArtifact, serverCategories } from './sarif.js';
export { fleetHtml } from './html.js';
export { fleetMarkdown, MAX_COMMENT_CHARS } from './markdown.js';
export { OUTCOME_LABELS, SERVER_HTML_REPORT, serverHtmlHref } from './rows.js';

/** File names of the fleet's reports in the output directory, beside fleet.json. */
export const FLEET_REPORT_FILES = {
  junit: JUNIT_REPORT_FILE,
  sarif: SARIF_REPORT_FILE,
  html: HTML_REPORT_FILE,
  markdown: MARKDOWN_REPORT_FILE,
} as const;
