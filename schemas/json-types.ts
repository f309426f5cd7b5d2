// Building blocks shared by the schema files: named schemas with URN ids, references between
// them, nullable wrappers and the free-form shapes the spec uses. Every helper yields plain JSON
// Schema (draft 2020-12) plus the matching static TypeScript type.
import { Type, type SchemaOptions, type Static, type TSchema } from '@sinclair/typebox';

const ID_PREFIX = 'urn:apc:schema:';

/** `$id` of a named schema. URNs, not URLs: the ids must not look fetchable. */
export const schemaId = (name: string): string => `${ID_PREFIX}${name}`;

/** The schema name a `$ref` points to, or undefined when it is not one of ours. */
export const refName = (ref: string): string | undefined => (ref.startsWith(ID_PREFIX) ? ref.slice(ID_PREFIX.length) : undefined);

/** Options that name a schema: its `$id` and a `title`. */
export const named = (name: string, description?: string): SchemaOptions => ({
  $id: schemaId(name),
  title: name,
  ...(description !== undefined && { description }),
});

/** A `$ref` to a named schema, typed as that schema. */
export const refTo = <T extends TSchema>(schema: T): TSchema & { static: Static<T> } => {
  if (schema.$id === undefined) throw new Error('refTo needs a named schema (one built with named(...)); this one has no $id.');
  return Type.Unsafe<Static<T>>({ $ref: schema.$id });
};

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An optional field whose value may also be null (the spec's "T or null"). */
export const OptionalNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** A string from a fixed list. Only `enum`: a wrong type then gives one enum issue, not two. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ enum: [...values], ...options });

export const Uuid = (options: SchemaOptions = {}) => Type.String({ format: 'uuid', ...options });

/**
 * A date-time. The loader's `date-time` format also accepts a timezone-naive value (read as UTC),
 * as the upload endpoint's documentation sends them (FIELD-NOTES); see datetime-format.ts.
 */
export const DateTime = (options: SchemaOptions = {}) => Type.String({ format: 'date-time', ...options });

/** An object of any shape. */
export const FreeObject = (options: SchemaOptions = {}) => Type.Unsafe<Record<string, unknown>>({ type: 'object', ...options });

/** A map of string to string (labels, annotations, resource quantities). */
export const StringMap = (options: SchemaOptions = {}) =>
  Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' }, ...options });
