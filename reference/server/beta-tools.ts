import { textResult, type ReferenceTool, type ToolDefinition } from './tool-types.js';

/** Listed only while toggle_beta_tools has switched it on: the tool-set change behind list_changed. */
export const betaForecast: ReferenceTool = {
  definition: {
    name: 'beta_forecast',
    title: 'Forecast (beta)',
    description: 'A beta tool, listed only after toggle_beta_tools switched beta tools on. Returns a fixed outlook.',
    inputSchema: { type: 'object', additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  run: () => textResult('Outlook: mild and dry for the next three days.'),
};

/** Switches the beta tools on or off and tells every subscriber that asked for tool-list changes. */
export const toggleBetaTools: ReferenceTool = {
  definition: {
    name: 'toggle_beta_tools',
    title: 'Toggle Beta Tools',
    description:
      'Switch the beta tools on or off (adds or removes beta_forecast from tools/list) and send ' +
      'notifications/tools/list_changed. Call it again to undo.',
    inputSchema: { type: 'object', additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  run: ({ state, defects }) => {
    state.betaTools = !state.betaTools;
    state.subscriptions.toolsChanged(defects);
    return textResult(`beta tools are now ${state.betaTools ? 'on' : 'off'}`);
  },
};

export const BETA_DEFINITION: ToolDefinition = betaForecast.definition;
