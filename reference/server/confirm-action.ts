import { isObject } from '../../src/core/jsonrpc.js';
import type { ConfirmRules } from './defects/seams/calls.js';
import { invalidParams, missingCapability } from './protocol-error.js';
import { supportsFormElicitation } from './request-meta.js';
import { digestOf, type StateBinding } from './request-state.js';
import { textResult, type InputRequiredOutcome, type ToolCall, type ToolOutcome } from './tool-types.js';

const INPUT_KEY = 'confirm';

/** confirm_action: a multi round-trip call that needs one form elicitation answered before it completes. */
export function confirmAction(call: ToolCall): ToolOutcome {
  const { defects } = call;
  const rules: ConfirmRules = { needsFormElicitation: true, verifiesRequestState: true };
  defects.at.confirmRules(rules);
  if (!supportsFormElicitation(call.clientCapabilities) && rules.needsFormElicitation) {
    const error = missingCapability('confirm_action requires the elicitation capability (form mode)', {
      elicitation: { form: {} },
    });
    throw defects.at.missingCapabilityError(error) ?? error;
  }
  const action = String(call.arguments.action);
  const replaced = defects.at.confirmCall(call.inputResponses, action);
  if (replaced) return replaced as unknown as ToolOutcome;
  const binding: StateBinding = { tool: call.name, argumentsDigest: digestOf(call.arguments) };
  defects.at.requestStateBinding(binding, call.connection);
  if (call.requestState === undefined) return askForConfirmation(call, action, binding);
  if (rules.verifiesRequestState && !call.state.requestStates.verify(call.requestState, binding)) {
    throw invalidParams('Invalid requestState: it was not issued for this tool call or has expired');
  }
  const refused = defects.at.confirmRetry(INPUT_KEY, call.inputResponses ?? {});
  if (refused) throw refused;
  const answer = call.inputResponses?.[INPUT_KEY];
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
  const request = {
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
  };
  const result = {
    resultType: 'input_required' as const,
    inputRequests: { [INPUT_KEY]: call.defects.at.elicitationRequest(request, action) ?? request },
    requestState: call.state.requestStates.issue(binding),
  };
  call.defects.at.inputRequiredResult(result);
  return result;
}
