// What a generated mutant needs to know of one field of a section-2 type, read from its schema
// (schemas/): JSON type, whether it is required and nullable, its enum or format.
import type { TSchema } from '@sinclair/typebox';

export interface FieldShape {
  name: string;
  required: boolean;
  nullable: boolean;
  /** The JSON type of a non-null value ('any' when the schema leaves it open). */
  type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'any';
  enum?: string[];
  format?: string;
}

type Json = Record<string, unknown>;

function shapeOf(schema: Json): Pick<FieldShape, 'nullable' | 'type' | 'enum' | 'format'> {
  const options = (schema.anyOf as Json[] | undefined) ?? [schema];
  const nullable = options.some((o) => o.type === 'null');
  const value = options.find((o) => o.type !== 'null') ?? {};
  const type = typeof value.type === 'string' ? value.type : value.$ref ? 'object' : Array.isArray(value.enum) ? 'string' : 'any';
  return {
    // A schema that leaves the value open (Type.Unknown) takes null too.
    nullable: nullable || type === 'any',
    type: (['string', 'number', 'integer', 'boolean', 'object', 'array'].includes(type) ? type : 'any') as FieldShape['type'],
    ...(Array.isArray(value.enum) ? { enum: value.enum as string[] } : {}),
    ...(typeof value.format === 'string' ? { format: value.format } : {}),
  };
}

/** The top-level fields of an object schema. */
export function fieldsOf(schema: TSchema): FieldShape[] {
  const properties = (schema as unknown as { properties?: Record<string, Json> }).properties ?? {};
  const required = new Set((schema as unknown as { required?: string[] }).required ?? []);
  return Object.entries(properties).map(([name, s]) => ({ name, required: required.has(name), ...shapeOf(s) }));
}

/** A value of another JSON type than the field's. */
export function wrongTypeValue(field: FieldShape): unknown {
  switch (field.type) {
    case 'string':
      return 12345;
    case 'number':
    case 'integer':
      return 'not-a-number';
    case 'boolean':
      return 'true';
    case 'object':
      return 'not-an-object';
    case 'array':
      return { not: 'an array' };
    case 'any':
      return undefined;
  }
}
