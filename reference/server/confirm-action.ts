import { isObject } from '../../src/core/jsonrpc.js';
import { ErrorCode } from './constants.js';
import { invalidParams, missingCapability, ProtocolError } from './protocol-error.js';
import { supportsFormElicitation } from './request-meta.js';
import { digestOf, type StateBinding } from './request-state.js';
import { textResult, type InputRequiredOutcome, type ToolCall, type ToolOutcome } from './tool-types.js';

const INPUT_KEY = 'confirm';

/** confirm_action: a multi round-trip call that needs one form elicitation answered before it completes. */
export function confirmAction(call: ToolCall): ToolOutcome {
  const defects = call.defects ?? new Set<string>();
  if (!supportsFormElicitation(call.clientCapabilities) && !defects.has('irr-without-capability')) {
    if (defects.has('missing-capability-no-data')) {
      throw new ProtocolError(
        ErrorCode.MissingRequiredClientCapability,
        'confirm_action requires the elicitation capability',
        400,
      );
    }
    const error = missingCapability('confirm_action requires the elicitation capability (form mode)', {
      elicitation: { form: {} },
    });
    throw defects.has('missing-capability-200') ? new ProtocolError(error.code, error.message, 200, error.data) : error;
  }
  if (defects.has('irr-empty')) {
    return call.inputResponses === undefined
      ? ({ resultType: 'input_required' } as unknown as InputRequiredOutcome)
      : textResult(`Confirmed: "${String(call.arguments.action)}" was carried out.`);
  }
  const action = String(call.arguments.action);
  // The request-state-per-connection defect also binds the state to the client's connection.
  const perConnection = defects.has('request-state-per-connection') ? `@${call.connection ?? ''}` : '';
  const binding: StateBinding = { tool: call.name, argumentsDigest: digestOf(call.arguments) + perConnection };
  if (call.requestState === undefined) return askForConfirmation(call, action, binding);
  if (!defects.has('request-state-unverified') && !call.state.requestStates.verify(call.requestState, binding)) {
    throw invalidParams('Invalid requestState: it was not issued for this tool call or has expired');
  }
  const answer = call.inputResponses?.[INPUT_KEY];
  const unrequested = Object.keys(call.inputResponses ?? {}).filter((key) => key !== INPUT_KEY);
  if (unrequested.length > 0 && defects.has('extra-input-response-rejected'))
    throw invalidParams(`Invalid inputResponses: unexpected key ${unrequested[0]!}`);
  if (answer === undefined && defects.has('re-request-error'))
    throw invalidParams(`Missing inputResponses.${INPUT_KEY}`);
  if (answer !== undefined && defects.has('retry-answer-rejected'))
    throw new ProtocolError(ErrorCode.InternalError, 'Internal error', 200);
  if (answer === undefined) return askForConfirmation(call, action, binding);
  if (!isObject(answer) || !['accept', 'decline', 'cancel'].includes(String(answer.action))) {
    throw invalidParams(`Invalid inputResponses.${INPUT_KEY}: expected an elicitation result with an action`);
  }
  if (answer.action !== 'accept')
    return textResult(`Not confirmed (${String(answer.action)}): "${action}" was not carried out.`);
  const ok = isObject(answer.content) ? answer.content.ok : undefined;
  if (typeof ok !== 'boolean') return askForConfirmation(call, action, binding);
  return textResult(ok ? `Confirmed: "${action}" was carried out.` : `Not confirmed: "${action}" was not carried out.`);
}

/**
 * The request-state-tamper-hang defect decodes a state's payload before checking its signature, and a payload that is
 * not base64url JSON leaves the call hanging: true for such a state.
 */
export function undecodableState(state: unknown): boolean {
  if (typeof state !== 'string') return false;
  try {
    JSON.parse(Buffer.from(state.split('.')[0]!, 'base64url').toString('utf8'));
    return false;
  } catch {
    return true;
  }
}

function askForConfirmation(call: ToolCall, action: string, binding: StateBinding): InputRequiredOutcome {
  const request = call.defects?.has('elicit-url-mode-undeclared')
    ? {
        // A URL-mode elicitation, although the call declared form mode only (the defect ignores the declared modes).
        method: 'elicitation/create',
        params: { mode: 'url', message: `Open the page to confirm: ${action}`, url: 'https://example.com/confirm' },
      }
    : undefined;
  return {
    resultType: 'input_required',
    inputRequests: {
      [INPUT_KEY]: request ?? {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: `Do you want to go ahead with: ${action}?`,
          requestedSchema: {
            type: 'object',
            properties: { ok: { type: 'boolean', title: 'Confirm', description: 'Tick to confirm the action' } },
            required: ['ok'],
          },
        },
      },
    },
    requestState: call.state.requestStates.issue(binding),
    ...(call.defects?.has('interim-result-cache-hints') ? { ttlMs: 60_000, cacheScope: 'private' } : {}),
  };
}
