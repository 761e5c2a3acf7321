import { isObject } from '../../src/core/jsonrpc.js';

export type InputResponsesOutcome = { ok: true; responses: Record<string, unknown> } | { ok: false; message: string };

/**
 * Answers an MRTR `inputRequests` map without a user: form elicitations are accepted with each field's
 * `default` (else a neutral value of its type) and `roots/list` gets no roots. Anything else cannot be answered.
 */
export function answerInputRequests(inputRequests: Record<string, unknown>): InputResponsesOutcome {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    const method = isObject(request) ? request.method : undefined;
    const params = isObject(request) && isObject(request.params) ? request.params : {};
    if (method === 'roots/list') {
      responses[key] = { roots: [] };
    } else if (method === 'elicitation/create' && (params.mode === undefined || params.mode === 'form')) {
      responses[key] = { action: 'accept', content: formContent(params.requestedSchema) };
    } else {
      const what =
        method === 'elicitation/create'
          ? `elicitation/create in mode ${JSON.stringify(params.mode)}`
          : JSON.stringify(method);
      return { ok: false, message: `cannot answer input request "${key}": ${what} is not supported` };
    }
  }
  return { ok: true, responses };
}

function formContent(requestedSchema: unknown): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  const properties =
    isObject(requestedSchema) && isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  for (const [name, field] of Object.entries(properties)) {
    const value = isObject(field) ? fieldValue(field) : undefined;
    if (value !== undefined) content[name] = value;
  }
  return content;
}

function fieldValue(field: Record<string, unknown>): unknown {
  if (Object.hasOwn(field, 'default')) return field.default;
  const firstChoice = choices(field)[0];
  switch (field.type) {
    case 'string':
      return firstChoice ?? '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return undefined;
  }
}

/** The values an enum field offers (`enum`, or `oneOf`/`anyOf` of `const`), so an answer stays valid. */
function choices(field: Record<string, unknown>): unknown[] {
  if (Array.isArray(field.enum)) return field.enum;
  const options = Array.isArray(field.oneOf) ? field.oneOf : Array.isArray(field.anyOf) ? field.anyOf : [];
  return options
    .filter((option) => isObject(option) && 'const' in option)
    .map((option) => (option as { const: unknown }).const);
}
