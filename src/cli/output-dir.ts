import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { FILE_REPORTER_NAMES, type ReporterName } from '../report/names.js';
import { UsageError } from './usage-error.js';

/**
 * The --output-dir a run will write its report files to, made ready before the audit: a path that is a file, or a
 * folder that cannot be created or written, is a usage error at once rather than a failure after the whole audit.
 */
export async function prepareOutputDir(dir: string, reporters: readonly ReporterName[]): Promise<void> {
  if (!reporters.some((r) => FILE_REPORTER_NAMES.includes(r))) return;
  const existing = await stat(dir).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw new UsageError(`--output-dir ${dir} is a file, not a folder`);
  try {
    if (!existing) await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new UsageError(
      `--output-dir ${dir} cannot be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
