import { describe, expect, it } from 'vitest';
import { expandPlaceholders, inputVariable, type PlaceholderContext } from './placeholders.js';

const context = (
  env: Record<string, string | undefined>,
  inputs: Array<[string, string | undefined]> = [],
): PlaceholderContext => ({
  env,
  workspaceFolder: '/work/project',
  userHome: '/home/u',
  pathSeparator: '/',
  inputDefaults: new Map(inputs),
});

describe('expandPlaceholders', () => {
  it.each([
    ['${env:TOKEN}', { TOKEN: 't' }, 't'],
    ['Bearer ${TOKEN}', { TOKEN: 't' }, 'Bearer t'],
    ['${HOST:-localhost}:${PORT:-3000}', { PORT: '8080' }, 'localhost:8080'],
    ['${HOST:-}', { HOST: '' }, ''],
    ['${URL:-http://x:1/a}', {}, 'http://x:1/a'],
    [
      '${workspaceFolder}${/}src ${workspaceFolderBasename} ${userHome}${pathSeparator}x',
      {},
      '/work/project/src project /home/u/x',
    ],
    ['$TOKEN and $${TOKEN} stay', { TOKEN: 't' }, '$TOKEN and $t stay'],
    ['no placeholders', {}, 'no placeholders'],
  ])('%s', (text, env, value) => {
    expect(expandPlaceholders(text, context(env))).toEqual({ value, missing: [], unsupported: [] });
  });

  it('names what the environment lacks, once each, and leaves it as written; an empty variable counts as missing', () => {
    expect(expandPlaceholders('${env:A} ${B} ${A} ${input:gh-token} ${env:EMPTY}', context({ EMPTY: '' }))).toEqual({
      value: '${env:A} ${B} ${A} ${input:gh-token} ${env:EMPTY}',
      missing: ['A', 'B', 'input:gh-token', 'EMPTY'],
      unsupported: [],
    });
  });

  it('an input comes from MCP_INPUT_<ID>, else its default', () => {
    const inputs: Array<[string, string | undefined]> = [
      ['region', 'eu'],
      ['api-key', undefined],
    ];
    expect(
      expandPlaceholders('${input:region}/${input:api-key}', context({ MCP_INPUT_API_KEY: 'k' }, inputs)).value,
    ).toBe('eu/k');
    expect(expandPlaceholders('${input:region}', context({ MCP_INPUT_REGION: 'us' }, inputs)).value).toBe('us');
  });

  it('other placeholders are reported as unsupported, not as secrets', () => {
    expect(expandPlaceholders('${command:pick} ${config:a.b} ${file:/x} ${}', context({}))).toEqual({
      value: '${command:pick} ${config:a.b} ${file:/x} ${}',
      missing: [],
      unsupported: ['${command:pick}', '${config:a.b}', '${file:/x}', '${}'],
    });
  });

  it('${userHome} without a home is missing', () => {
    expect(expandPlaceholders('${userHome}', { ...context({}), userHome: undefined }).missing).toEqual(['userHome']);
  });
});

describe('inputVariable', () => {
  it.each([
    ['github_token', 'MCP_INPUT_GITHUB_TOKEN'],
    ['perplexity-key', 'MCP_INPUT_PERPLEXITY_KEY'],
    ['db.url', 'MCP_INPUT_DB_URL'],
  ])('%s → %s', (id, name) => expect(inputVariable(id)).toBe(name));
});
