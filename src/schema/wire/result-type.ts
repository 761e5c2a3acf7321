/** The two core `resultType` values; extensions may add others, which no schema here accepts. */
export const CompleteResultType = { type: 'string', const: 'complete' } as const;
export const InputRequiredResultType = { type: 'string', const: 'input_required' } as const;
