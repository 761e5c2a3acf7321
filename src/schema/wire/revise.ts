type ObjectSchema = { readonly properties: Readonly<Record<string, unknown>> };

/**
 * An object schema as an older revision states it: without the members it did not have yet, and with the members
 * whose shape differed replaced in place (so issues keep the order of the newer schema).
 */
export function revise<S extends ObjectSchema, Dropped extends keyof S['properties'] & string = never, Set extends Partial<Record<keyof S['properties'], unknown>> = object>(
  schema: S,
  change: { drop?: readonly Dropped[]; set?: Set },
): Omit<S, 'properties'> & { readonly properties: Omit<S['properties'], Dropped | keyof Set> & Set } {
  const dropped: readonly string[] = change.drop ?? [];
  const properties = Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([name]) => !dropped.includes(name))
      .map(([name, value]) => [name, change.set && name in change.set ? (change.set as Record<string, unknown>)[name] : value]),
  );
  return { ...schema, properties } as Omit<S, 'properties'> & { readonly properties: Omit<S['properties'], Dropped | keyof Set> & Set };
}
