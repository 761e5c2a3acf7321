import { ResultMeta } from './implementation.js';
import { InputRequiredResultType } from './result-type.js';

/** One server-to-client request embedded in an `InputRequiredResult` (elicitation, sampling, roots). */
export const InputRequest = {
  type: 'object',
  required: ['method'],
  properties: {
    method: { type: 'string' },
    params: { type: 'object' },
  },
} as const;

export const InputRequiredResult = {
  type: 'object',
  required: ['resultType'],
  properties: {
    resultType: InputRequiredResultType,
    inputRequests: { type: 'object', additionalProperties: InputRequest },
    requestState: { type: 'string' },
    _meta: ResultMeta,
  },
  anyOf: [{ required: ['inputRequests'] }, { required: ['requestState'] }],
} as const;
