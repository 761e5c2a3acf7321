import { readFileSync } from 'node:fs';
import type { CatalogRow } from './coverage-notes.js';

/** The requirement catalog rows extracted from shared/requirements.md by scripts/extract-catalog.mjs. */
export function loadCatalog(): CatalogRow[] {
  const file = new URL('../../../data/requirements-catalog.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { rows: CatalogRow[] }).rows;
}
