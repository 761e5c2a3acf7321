import type { SpecSentence, Revision } from '../kit/index.js';

/*
 * What each revision's schema.json says about tool errors. The text is the same in every revision; where it sits moved:
 * in CallToolResult's description until 2025-06-18 put it in isError's, and under `definitions` until 2025-11-25
 * (`$defs`).
 */

const ERRORS_DESCRIBED_AT: Record<Revision, string> = {
  '2026-07-28': 'schema.json#/$defs/CallToolResult/properties/isError/description',
  '2025-11-25': 'schema.json#/$defs/CallToolResult/properties/isError/description',
  '2025-06-18': 'schema.json#/definitions/CallToolResult/properties/isError/description',
  '2025-03-26': 'schema.json#/definitions/CallToolResult/description',
  '2024-11-05': 'schema.json#/definitions/CallToolResult/description',
};

/** The SHOULD (in capitals) to report errors that originate from the tool in the result, with isError. */
export const toolErrorsInResult = (wire: Revision): SpecSentence => ({
  ref: ERRORS_DESCRIBED_AT[wire],
  text:
    'Any errors that originate from the tool SHOULD be reported inside the result object, with isError set to ' +
    'true, _not_ as an MCP protocol-level error response.',
  keyword: 'SHOULD',
});

/** The lower-case "should" to report errors in finding the tool, and other exceptional conditions, as MCP errors. */
export const findingErrors = (wire: Revision): SpecSentence => ({
  ref: ERRORS_DESCRIBED_AT[wire],
  text:
    'However, any errors in _finding_ the tool, an error indicating that the server does not support tool ' +
    'calls, or any other exceptional conditions, should be reported as an MCP error response.',
  keyword: 'lower-case should in schema.json',
});
