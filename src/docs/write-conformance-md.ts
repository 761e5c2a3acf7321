import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_CHECKS } from '../../suites/index.js';
import { DEFECTS } from '../reference-server/defects.js';
import { CLIENT_SIDE } from './client-side.js';
import { renderConformance } from './conformance-md.js';
import { loadCatalog } from './requirements-catalog.js';

const target = fileURLToPath(new URL('../../../CONFORMANCE.md', import.meta.url));
writeFileSync(target, renderConformance(ALL_CHECKS, DEFECTS, loadCatalog(), CLIENT_SIDE));
process.stdout.write(`wrote ${target}\n`);
