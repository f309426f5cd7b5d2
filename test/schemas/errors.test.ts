// Error body schemas (spec 2.5, 7).
import { describe, it } from 'vitest';
import { expectIssue, expectValid } from './expect-validation.ts';

describe('error bodies', () => {
  it('accepts a 422 HTTPValidationError with string and integer loc parts', () => {
    expectValid('HTTPValidationError', {
      detail: [
        { loc: ['body', 'secrets', 0, 'value'], msg: 'Field required', type: 'missing' },
        { loc: ['path', 'deployment_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing', input: 'x', ctx: {} },
      ],
    });
    expectValid('HTTPValidationError', { detail: [] });
  });

  it('refuses a 422 body that is not a list of {loc, msg, type}', () => {
    expectIssue('HTTPValidationError', { detail: 'Field required' }, ['detail'], 'list_type');
    expectIssue('HTTPValidationError', {}, ['detail'], 'missing');
    expectIssue('HTTPValidationError', { detail: [{ loc: ['body'], msg: 'x' }] }, ['detail', 0, 'type'], 'missing');
    expectIssue('HTTPValidationError', { detail: [{ loc: 'body', msg: 'x', type: 't' }] }, ['detail', 0, 'loc'], 'list_type');
    expectIssue('HTTPValidationError', { detail: [{ loc: ['body', true], msg: 'x', type: 't' }] }, ['detail', 0, 'loc', 1], 'string_type');
    expectIssue('ValidationError', { loc: [1.5], msg: 'x', type: 't' }, ['loc', 0], 'string_type');
  });

  it('accepts a {detail: string} body and refuses others', () => {
    expectValid('ErrorDetail', { detail: 'Deployment ID 5f0b6c52-3d1e-4a8e-9c71-2b9f4e6a1d03 not found.' });
    expectIssue('ErrorDetail', { detail: [{ loc: [], msg: 'x', type: 't' }] }, ['detail'], 'string_type');
    expectIssue('ErrorDetail', { message: 'not found' }, ['detail'], 'missing');
    expectIssue('ErrorDetail', 'Not Found', [], 'dict_type');
  });
});
