export type Paint = (text: string) => string;

export interface Palette {
  green: Paint;
  red: Paint;
  yellow: Paint;
  magenta: Paint;
  dim: Paint;
  bold: Paint;
}

function sgr(open: number, close: number): Paint {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

const identity: Paint = (text) => text;

export function palette(enabled: boolean): Palette {
  if (!enabled) {
    return { green: identity, red: identity, yellow: identity, magenta: identity, dim: identity, bold: identity };
  }
  return {
    green: sgr(32, 39),
    red: sgr(31, 39),
    yellow: sgr(33, 39),
    magenta: sgr(35, 39),
    dim: sgr(2, 22),
    bold: sgr(1, 22),
  };
}

/**
 * FORCE_COLOR (any value but "0"/"false") forces colour on and FORCE_COLOR=0 forces it off, as in
 * Node itself; otherwise colour needs an empty NO_COLOR, a TTY stream and TERM other than "dumb".
 */
export function colorEnabled(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return (stream as { isTTY?: boolean }).isTTY === true;
}
