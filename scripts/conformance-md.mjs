// npm run conformance-md (after the build): writes CONFORMANCE.md from the registry, the requirements catalog and the
// reference programs' defect tables. The tables reach the generator here, as data (dist/reference/defect-tables.js):
// the auditor's code does not import the reference programs (ARCHITECTURE.md, scripts/check-boundaries.mjs).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);
const [
  { ALL_CHECKS },
  { CLIENT_DEFECT_REFS, SERVER_DEFECT_REFS },
  { clientSide },
  { renderConformance },
  { loadCatalog },
] = await Promise.all([
  built('suites/index.js'),
  built('reference/defect-tables.js'),
  built('src/catalog/client-side.js'),
  built('src/catalog/conformance-md.js'),
  built('src/catalog/requirements-catalog.js'),
]);

const target = fileURLToPath(new URL('../CONFORMANCE.md', import.meta.url));
writeFileSync(target, renderConformance(ALL_CHECKS, SERVER_DEFECT_REFS, loadCatalog(), clientSide(CLIENT_DEFECT_REFS)));
process.stdout.write(`wrote ${target}\n`);
