type ObjectSchema = { readonly properties: Readonly<Record<string, unknown>> };
type Members<S extends ObjectSchema> = keyof S['properties'] & string;
type Revised<S extends ObjectSchema, Dropped extends string, Set> = Omit<S, 'properties'> & {
  readonly properties: Omit<S['properties'], Dropped | keyof Set> & Set;
};

/**
 * An object schema as an older revision states it: without the members it did not have yet, and with the members
 * whose shape differed replaced in place (so issues keep the order of the newer schema).
 */
export function revise<
  S extends ObjectSchema,
  Dropped extends Members<S> = never,
  Set extends Partial<Record<Members<S>, unknown>> = object,
>(schema: S, change: { drop?: readonly Dropped[]; set?: Set }): Revised<S, Dropped, Set> {
  const dropped: readonly string[] = change.drop ?? [];
  const replaced: Readonly<Record<string, unknown>> = change.set ?? {};
  const properties = Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([name]) => !dropped.includes(name))
      .map(([name, value]) => [name, name in replaced ? replaced[name] : value]),
  );
  return { ...schema, properties } as Revised<S, Dropped, Set>;
}
