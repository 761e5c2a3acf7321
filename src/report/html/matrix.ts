import type { CheckResult } from '../../model/check.js';
import { countByStatus, STATUSES } from '../statuses.js';
import { escapeHtml } from './escape.js';

/** Outcomes grouped by area, areas in the order they first appear. */
export function groupByArea<T>(items: readonly T[], areaOf: (item: T) => string): Map<string, T[]> {
  const areas = new Map<string, T[]>();
  for (const item of items) {
    const list = areas.get(areaOf(item)) ?? [];
    list.push(item);
    areas.set(areaOf(item), list);
  }
  return areas;
}

export function areaAnchor(area: string): string {
  return `area-${area}`;
}

export function renderMatrix(areas: ReadonlyMap<string, readonly CheckResult[]>): string {
  const head = `<tr><th>Area</th><th>outcomes</th>${STATUSES.map((s) => `<th>${s}</th>`).join('')}</tr>`;
  const rows = [...areas].map(([area, checks]) => {
    const counts = countByStatus(checks);
    const cells = STATUSES.map(
      (s) => `<td class="${s} ${counts[s] === 0 ? 'zero' : 'nonzero'}" data-count="${s}">${counts[s]}</td>`,
    ).join('');
    const name = escapeHtml(area);
    return (
      `<tr data-area="${name}"><th><a href="#${escapeHtml(areaAnchor(area))}">${name}</a></th><td ` +
      `data-count="total">${checks.length}</td>${cells}</tr>`
    );
  });
  return (
    `<section id="matrix-section"><h2>Requirement matrix by area</h2><table id="matrix"><thead>${head}` +
    `</thead><tbody>${rows.join('')}</tbody></table></section>`
  );
}
