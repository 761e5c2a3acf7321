import { REDACTED } from '../model/redacted.js';

const SECRET_WORD = /(key|token|secret|password|passwd|pwd|auth|credential|bearer|cookie|session)/i;

/**
 * A command line as it may appear in reports: values of secret-looking flags (`--api-key X`, `--token=X`)
 * and environment-style assignments (`API_KEY=X node server.js`) are replaced.
 */
export function redactCommandLine(command: string): string {
  const words = command.split(/(\s+)/);
  let hideNext = false;
  return words
    .map((word) => {
      if (/^\s+$/.test(word) || word === '') return word;
      if (hideNext) {
        hideNext = false;
        return REDACTED;
      }
      const flag = /^(-{1,2}[\w.-]+)=(.*)$/.exec(word);
      if (flag && SECRET_WORD.test(flag[1]!)) return `${flag[1]}=${REDACTED}`;
      const env = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(word);
      if (env && SECRET_WORD.test(env[1]!)) return `${env[1]}=${REDACTED}`;
      if (/^-{1,2}[\w.-]+$/.test(word) && SECRET_WORD.test(word)) hideNext = true;
      return word;
    })
    .join('');
}

/** A URL as it may appear in reports: no userinfo, query values replaced. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = url.username ? 'redacted' : '';
    url.password = '';
    for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, 'redacted');
    return url.toString();
  } catch {
    return REDACTED;
  }
}
