import { undecodableState } from '../confirm-action.js';
import { ErrorCode } from '../constants.js';
import { invalidParams, ProtocolError } from '../protocol-error.js';
import { textResult } from '../tool-types.js';
import { defineDefects } from './define.js';

/** Defects that the checks of suites/mrtr/ catch, each breaking one of them. */
export const MRTR_DEFECTS = defineDefects([
  {
    name: 'capabilities-remembered',
    breaks: 'state.no-prior-context',
    description: 'client capabilities declared by one request are added to every later request of the same connection',
    transports: ['stdio'],
    at: {
      requestMeta: (meta, connection, rememberedCapabilities) => {
        meta.clientCapabilities = { ...rememberedCapabilities.get(connection), ...meta.clientCapabilities };
        rememberedCapabilities.set(connection, meta.clientCapabilities);
      },
    },
  },
  {
    name: 'request-state-per-connection',
    breaks: 'state.no-connection-affinity',
    description:
      "confirm_action's requestState is bound to the client's connection: the retry on another connection gets -32602",
    transports: ['http'],
    at: {
      requestStateBinding: (binding, connection) => {
        binding.argumentsDigest += `@${connection ?? ''}`;
      },
    },
  },
  {
    name: 'irr-without-capability',
    breaks: 'mrtr.irr.declared-only',
    description:
      'confirm_action sends its elicitation input request even when the call declared no elicitation capability',
    at: {
      confirmRules: (rules) => {
        rules.needsFormElicitation = false;
      },
    },
  },
  {
    name: 'missing-capability-no-data',
    breaks: 'meta.caps.missing-32021',
    description: 'the -32021 of confirm_action has no data.requiredCapabilities',
    at: {
      missingCapabilityError: () =>
        new ProtocolError(
          ErrorCode.MissingRequiredClientCapability,
          'confirm_action requires the elicitation capability',
          400,
        ),
    },
  },
  {
    name: 'missing-capability-200',
    breaks: 'meta.caps.missing-http-400',
    description: 'the -32021 of confirm_action is sent with HTTP 200',
    transports: ['http'],
    at: { missingCapabilityError: (error) => new ProtocolError(error.code, error.message, 200, error.data) },
  },
  {
    name: 'retry-answer-rejected',
    breaks: 'mrtr.retry.completes',
    description: 'confirm_action answers every retry that carries inputResponses with -32603 instead of a result',
    at: {
      confirmRetry: (asked, inputResponses) =>
        inputResponses[asked] === undefined
          ? undefined
          : new ProtocolError(ErrorCode.InternalError, 'Internal error', 200),
    },
  },
  {
    name: 'irr-empty',
    breaks: 'mrtr.irr.non-empty',
    description:
      'confirm_action answers input_required with neither inputRequests nor requestState (and completes on any retry)',
    at: {
      confirmCall: (inputResponses, action) =>
        inputResponses === undefined
          ? { resultType: 'input_required' }
          : { ...textResult(`Confirmed: "${action}" was carried out.`) },
    },
  },
  {
    name: 'request-state-tamper-hang',
    breaks: 'mrtr.requeststate.untrusted',
    description:
      'tools/call decodes a requestState before checking its signature: a truncated or empty state leaves the ' +
      'call unanswered (the audit runs with --timeout 2000)',
    transports: ['stdio'],
    auditArgs: ['--timeout', '2000'],
    at: {
      requestReceived: ({ method, params }) =>
        method === 'tools/call' && undecodableState(params.requestState) ? { kind: 'hang' } : undefined,
    },
  },
  {
    name: 'request-state-unverified',
    breaks: 'mrtr.requeststate.replay-binding',
    description:
      'confirm_action never verifies a requestState: a tampered one (a character changed, truncated, empty) ' +
      'carries the retry to completion',
    transports: ['stdio'],
    at: {
      confirmRules: (rules) => {
        rules.verifiesRequestState = false;
      },
    },
  },
  {
    name: 'elicit-url-mode-undeclared',
    breaks: 'elicit.server.modes',
    description:
      'confirm_action asks through a URL-mode elicitation although the call declared form mode only ' +
      '(elicitation: {form: {}} or {})',
    transports: ['stdio'],
    at: {
      elicitationRequest: (_request, action) => ({
        method: 'elicitation/create',
        params: { mode: 'url', message: `Open the page to confirm: ${action}`, url: 'https://example.com/confirm' },
      }),
    },
  },
  {
    name: 're-request-error',
    breaks: 'mrtr.server.re-request',
    description:
      'confirm_action answers a retry with a valid requestState but no answer to its input request with -32602 ' +
      'instead of asking again',
    transports: ['stdio'],
    at: {
      confirmRetry: (asked, inputResponses) =>
        inputResponses[asked] === undefined ? invalidParams(`Missing inputResponses.${asked}`) : undefined,
    },
  },
  {
    name: 'extra-input-response-rejected',
    breaks: 'mrtr.server.ignore-extra',
    description: 'confirm_action answers -32602 when inputResponses holds a key it did not ask for',
    transports: ['stdio'],
    at: {
      confirmRetry: (asked, inputResponses) => {
        const unrequested = Object.keys(inputResponses).find((key) => key !== asked);
        if (unrequested !== undefined) return invalidParams(`Invalid inputResponses: unexpected key ${unrequested}`);
      },
    },
  },
  {
    name: 'input-responses-unvalidated',
    breaks: 'mrtr.server.validate-inputresponses',
    description:
      'tools/call treats an inputResponses that is not an object (a string) as absent, so confirm_action asks ' +
      'again instead of answering -32602',
    transports: ['stdio'],
    at: {
      callParamsRules: (rules) => {
        rules.nonObjectInputResponses = 'absent';
      },
    },
  },
]);
