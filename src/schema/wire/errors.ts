import { JSONRPCErrorObject, errorResponseWith } from './json-rpc-envelope.js';
import { ERR } from '../../protocol/constants.js';

/** An error object with a fixed code; `data` is whatever the given schema says (any value by default). */
function errorObjectWithCode(code: number, data: object = {}, dataRequired = false) {
  return {
    type: 'object',
    required: dataRequired ? ['code', 'message', 'data'] : ['code', 'message'],
    properties: {
      ...JSONRPCErrorObject.properties,
      code: { type: 'integer', const: code },
      data,
    },
  } as const;
}

/**
 * Accepts either a whole error response (anything with an `error` or `jsonrpc` member) or the bare
 * error object, as the official examples use both forms.
 */
function errorResponseOrObject(errorObject: object) {
  return {
    type: 'object',
    if: { type: 'object', anyOf: [{ required: ['error'] }, { required: ['jsonrpc'] }] },
    then: errorResponseWith(errorObject),
    else: errorObject,
  } as const;
}

export const HeaderMismatchErrorObject = errorObjectWithCode(ERR.headerMismatch);

export const MissingRequiredClientCapabilityErrorObject = errorObjectWithCode(
  -32021,
  {
    type: 'object',
    required: ['requiredCapabilities'],
    properties: { requiredCapabilities: { type: 'object' } },
  },
  true,
);

export const UnsupportedProtocolVersionErrorObject = errorObjectWithCode(
  -32022,
  {
    type: 'object',
    required: ['supported', 'requested'],
    properties: {
      supported: { type: 'array', items: { type: 'string' } },
      requested: { type: 'string' },
    },
  },
  true,
);

export const MethodNotFoundErrorObject = errorObjectWithCode(ERR.methodNotFound);
export const InvalidParamsErrorObject = errorObjectWithCode(ERR.invalidParams);

export const HeaderMismatchError = errorResponseOrObject(HeaderMismatchErrorObject);
export const MissingRequiredClientCapabilityError = errorResponseOrObject(MissingRequiredClientCapabilityErrorObject);
export const UnsupportedProtocolVersionError = errorResponseOrObject(UnsupportedProtocolVersionErrorObject);
export const MethodNotFoundError = errorResponseOrObject(MethodNotFoundErrorObject);
export const InvalidParamsError = errorResponseOrObject(InvalidParamsErrorObject);
