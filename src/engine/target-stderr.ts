import { stderrExcerpt } from '../transport/stderr-excerpt.js';

/** What the target's stderr showed, for report.json: the excerpt of stderrExcerpt, or nothing when it wrote none. */
export function targetStderr(stderr: string): { targetStderr?: string[] } {
  const excerpt = stderrExcerpt(stderr);
  return excerpt.length > 0 ? { targetStderr: excerpt } : {};
}
