/**
 * A fleet's audit processes start as spares: our CLI, started with SPARE_COMMAND, loads what an audit needs and then
 * waits for its arguments, one JSON array of strings on a line of its stdin. A fleet keeps one spare ahead of the
 * servers it has yet to start, so that a lane that frees up starts its next audit without Node's start-up and the
 * loading of our modules (~0.1 s of CPU, done meanwhile on a core the running audits leave idle).
 */
export const SPARE_COMMAND = 'fleet-spare';

/** The arguments a spare was given: undefined when its stdin ended without any (a spare the fleet did not need). */
export async function spareArguments(input: NodeJS.ReadableStream): Promise<string[] | undefined> {
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.includes('\n')) break;
  }
  const line = text.split('\n')[0]!.trim();
  if (line === '') return undefined;
  const parsed: unknown = JSON.parse(line);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error('a spare audit process was given arguments that are not an array of strings');
  return parsed;
}
