// JSON bodies checked against the project's schemas: a violation is a 422 HTTPValidationError whose
// `loc` starts with "body", as the platform's FastAPI service answers.
import { validate, type SchemaName } from '../../schemas/index.ts';
import { unprocessable } from '../http-errors.ts';

export function validBody<T>(schema: SchemaName, body: unknown): T {
  if (body === undefined) throw unprocessable([{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  const result = validate(schema, body);
  if (!result.ok) throw unprocessable(result.issues.map((issue) => ({ ...issue, loc: ['body', ...issue.loc] })));
  return body as T;
}
