// Error bodies (spec 2.5, 7): 422 HTTPValidationError, and `{detail: string}` for 400 and 404.
import { Type, type Static } from '@sinclair/typebox';
import { named, refTo } from './json-types.ts';

export const ValidationError = Type.Object(
  {
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), { description: 'Where the problem is: keys and array indices.' }),
    msg: Type.String(),
    type: Type.String({ description: 'A short stable word, e.g. missing, string_type, enum.' }),
  },
  named('ValidationError'),
);
export type ValidationError = Static<typeof ValidationError>;

export const HTTPValidationError = Type.Object({ detail: Type.Array(refTo(ValidationError)) }, named('HTTPValidationError'));
export type HTTPValidationError = Static<typeof HTTPValidationError>;

export const ErrorDetail = Type.Object({ detail: Type.String() }, named('ErrorDetail', 'Body of 400 and 404 answers.'));
export type ErrorDetail = Static<typeof ErrorDetail>;

export const errorSchemas = { ValidationError, HTTPValidationError, ErrorDetail };
