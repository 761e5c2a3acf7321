/**
 * The placeholders host files write in command, args, env, cwd, url and headers, resolved from the environment:
 * - `${env:NAME}` (VS Code, Cursor, Windsurf) and `${NAME}` / `${NAME:-default}` (Claude Code's .mcp.json);
 * - `${input:ID}` (VS Code, prompted there): here the environment variable `MCP_INPUT_<ID>` (see inputVariable), else
 *   the input's `default`;
 * - `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` / `${/}` (VS Code, Cursor).
 * Every form is read in every file: a name that cannot be resolved is reported, never guessed. An unset or empty
 * variable counts as missing (a secret left empty would only fail later, less clearly); `:-` takes its default then.
 */

/** What placeholders resolve against, besides the environment. */
export interface PlaceholderContext {
  env: Record<string, string | undefined>;
  workspaceFolder: string;
  userHome?: string;
  pathSeparator: string;
  /** The file's `inputs` (VS Code): id → default value, when it declares one. */
  inputDefaults: ReadonlyMap<string, string | undefined>;
}

export interface Expanded {
  /** The text with what resolved replaced; a placeholder that did not resolve stays as written. */
  value: string;
  /**
   * Names that could not be resolved: `GITHUB_TOKEN` for `${GITHUB_TOKEN}` and `${env:GITHUB_TOKEN}`, `input:id` for
   * inputs.
   */
  missing: string[];
  /** Placeholders this tool does not resolve (`${command:…}`, `${config:…}`, `${file:…}`), as written. */
  unsupported: string[];
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const WITH_DEFAULT = /^([A-Za-z_][A-Za-z0-9_]*):-(.*)$/s;

/**
 * The environment variable that supplies VS Code's `${input:ID}` here: `MCP_INPUT_` and the id in capitals, `_` for
 * other characters.
 */
export function inputVariable(id: string): string {
  return `MCP_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export function expandPlaceholders(text: string, context: PlaceholderContext): Expanded {
  const missing: string[] = [];
  const unsupported: string[] = [];
  const set = (name: string) => {
    const value = context.env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const value = text.replace(PLACEHOLDER, (whole, inner: string) => {
    const resolved = resolve(inner);
    if (resolved.value !== undefined) return resolved.value;
    if (resolved.missing !== undefined) missing.push(resolved.missing);
    else unsupported.push(whole);
    return whole;
  });
  return { value, missing: unique(missing), unsupported: unique(unsupported) };

  function resolve(inner: string): { value?: string; missing?: string } {
    switch (inner) {
      case 'workspaceFolder':
        return { value: context.workspaceFolder };
      case 'workspaceFolderBasename':
        return { value: basename(context.workspaceFolder) };
      case 'userHome':
        return context.userHome === undefined ? { missing: 'userHome' } : { value: context.userHome };
      case 'pathSeparator':
      case '/':
        return { value: context.pathSeparator };
    }
    if (inner.startsWith('env:')) {
      const name = inner.slice(4);
      return { value: set(name), missing: name };
    }
    if (inner.startsWith('input:')) {
      const id = inner.slice(6);
      return { value: set(inputVariable(id)) ?? context.inputDefaults.get(id), missing: `input:${id}` };
    }
    if (VARIABLE_NAME.test(inner)) return { value: set(inner), missing: inner };
    const withDefault = WITH_DEFAULT.exec(inner);
    if (withDefault) return { value: set(withDefault[1]!) ?? withDefault[2]! };
    return {};
  }
}

function basename(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

const unique = (names: string[]) => [...new Set(names)];
