import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from './tool-types.js';

const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });

/** Returns a description of what is wrong with the arguments, or undefined when they are valid. */
export type InputCheck = (args: Record<string, unknown>) => string | undefined;

/** Compiles a tool's inputSchema once; the returned check is reused for every call. */
export function compileInputCheck(toolName: string, schema: JsonSchema): InputCheck {
  const validate = ajv.compile(schema);
  return (args) => {
    if (validate(args)) return undefined;
    const detail = ajv.errorsText(validate.errors, { dataVar: 'arguments', separator: '; ' });
    return `Invalid arguments for tool ${toolName}: ${detail}`;
  };
}
