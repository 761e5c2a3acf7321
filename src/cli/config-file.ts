import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Read from the working directory when --config is not given. */
export const CONFIG_FILE = 'mcp-tools-conformance.config.json';
/** The key of package.json (in the working directory) whose object is a config. */
export const PACKAGE_KEY = 'mcp-tools-conformance';

const ENV_REFERENCE = /\$\{env:([^}]*)\}/g;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Where options come from besides the command line, for yargs' config support. */
export interface ConfigLayers {
  /** The config file in the working directory, when there is one: --config's default. */
  defaultFile?: string;
  /** package.json's "mcp-tools-conformance" object, checked and with its env references resolved. */
  packageConfig?: Record<string, unknown>;
}

/** Options of the command line a config cannot add to: a target given there replaces the config's target. */
export const TARGET_OPTIONS = ['stdio', 'url', 'from-snapshot'] as const;

/** Whether the command line names a target; a config's stdio, url and from-snapshot are then left out. */
export function targetOnCommandLine(argv: readonly string[]): boolean {
  return argv.some((a) => /^--(stdio|url|from-snapshot|fromSnapshot)(=|$)/.test(a));
}

export function configLayers(
  cwd: string,
  optionNames: readonly string[],
  omit: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): ConfigLayers {
  const layers: ConfigLayers = existsSync(join(cwd, CONFIG_FILE)) ? { defaultFile: CONFIG_FILE } : {};
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
  } catch {
    return layers;
  }
  if (typeof pkg !== 'object' || pkg === null || !(PACKAGE_KEY in pkg)) return layers;
  const raw = (pkg as Record<string, unknown>)[PACKAGE_KEY];
  return {
    ...layers,
    packageConfig: without(normalizeConfig(raw, `package.json "${PACKAGE_KEY}"`, optionNames, env), omit),
  };
}

/** yargs' config parser for --config (and its default): the file's object as options, or a ConfigError. */
export function configFileLoader(
  optionNames: readonly string[],
  omit: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): (path: string) => Record<string, unknown> {
  return (path) => {
    const shown = relative(process.cwd(), path);
    const name = shown.startsWith('..') ? path : shown;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `cannot read config file ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`config file ${name} is not valid JSON: ${oneLine((error as Error).message)}`);
    }
    return without(normalizeConfig(raw, `config file ${name}`, optionNames, env), omit);
  };
}

function without(config: Record<string, unknown>, omit: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([name]) => !omit.includes(name)));
}

/**
 * A config object as yargs takes it: keys are option names (kebab-case or camelCase), `headers` and `env` may also be
 * objects of names to values, and `${env:NAME}` in a header or env value is that environment variable.
 */
export function normalizeConfig(
  raw: unknown,
  source: string,
  optionNames: readonly string[],
  env: NodeJS.ProcessEnv,
): Record<string, unknown> {
  if (!isPlainObject(raw)) throw new ConfigError(`${source} must be a JSON object of options`);
  const known = new Map(
    optionNames
      .filter((n) => n !== 'config')
      .flatMap(
        (n) =>
          [
            [n, n],
            [camelCase(n), n],
          ] as const,
      ),
  );
  const out: Record<string, unknown> = {};
  const add = (name: string, values: string[]) =>
    (out[name] = [...((out[name] as string[] | undefined) ?? []), ...values]);
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'headers' || key === 'header') {
      add(
        'header',
        entries(value, source, key, ': ').map((h) =>
          resolveEnv(h, source, `header ${JSON.stringify(h.split(':')[0])}`, env),
        ),
      );
    } else if (key === 'env') {
      add(
        'env',
        entries(value, source, key, '=').map((e) =>
          resolveEnv(e, source, `env ${JSON.stringify(e.split('=')[0])}`, env),
        ),
      );
    } else {
      const name = known.get(key);
      if (name === undefined)
        throw new ConfigError(
          `${source}: unknown option "${key}" (keys are the command-line options: "url", "checks", "output-dir", …)`,
        );
      if (!isScalar(value) && !(Array.isArray(value) && value.every(isScalar)))
        throw new ConfigError(`${source}: "${key}" must be a string, number, boolean or a list of them`);
      if (JSON.stringify(value).includes('${env:'))
        throw new ConfigError(
          `${source}: "${key}" refers to an environment variable; \${env:NAME} works in header and env values only`,
        );
      out[name] = value;
    }
  }
  return out;
}

/** A header or env list as the command line gives it: ["Name: value"] / ["NAME=value"], from a list or an object. */
function entries(value: unknown, source: string, key: string, separator: string): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  if (isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string'))
    return Object.entries(value).map(([n, v]) => `${n}${separator}${v as string}`);
  throw new ConfigError(`${source}: "${key}" must be an object of names to string values, or a list of strings`);
}

function resolveEnv(text: string, source: string, what: string, env: NodeJS.ProcessEnv): string {
  return text.replace(ENV_REFERENCE, (_, name: string) => {
    const value = env[name];
    if (value === undefined || value === '')
      throw new ConfigError(`${source}: ${what} refers to \${env:${name}}, which is unset or empty`);
    return value;
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const camelCase = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
