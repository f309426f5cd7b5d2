// How `validate` words its issues: the spec's {loc, msg, type}, one issue per problem.
import { describe, expect, it } from 'vitest';
import { validate, type ValidationIssue } from '../../schemas/index.ts';

const issuesOf = (result: ReturnType<typeof validate>): ValidationIssue[] => (result.ok ? [] : result.issues);

const spec = (resourceSpec: object) => ({
  name: 'd',
  source: 'external_container',
  source_config: { resource_spec: resourceSpec },
  source_revision_config: {},
  secrets: [],
});

describe('validate', () => {
  it('answers { ok: true } for a valid value', () => {
    expect(validate('SetLatestRequest', { version: 3 })).toEqual({ ok: true });
  });

  it('lists every problem, each with loc, msg and type', () => {
    const issues = issuesOf(validate('DeploymentCreateRequest', { name: 1, source: 'ftp', secrets: [{ value: 'x' }] }));
    expect(issues).toEqual(
      expect.arrayContaining([
        { loc: ['source_config'], msg: 'Field required', type: 'missing' },
        { loc: ['source_revision_config'], msg: 'Field required', type: 'missing' },
        { loc: ['name'], msg: 'Input should be a valid string', type: 'string_type' },
        { loc: ['source'], msg: "Input should be 'gitforge', 'external_container', 'internal_container' or 'internal_source'", type: 'enum' },
        { loc: ['secrets', 0, 'name'], msg: 'Field required', type: 'missing' },
      ]),
    );
    expect(issues).toHaveLength(5);
  });

  it('uses numbers for array indices and strings for object keys, even numeric-looking ones', () => {
    expect(issuesOf(validate('DeploymentCreateRequest', spec({ labels: { '0': 1 } })))).toEqual([
      { loc: ['source_config', 'resource_spec', 'labels', '0'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
    expect(issuesOf(validate('DeploymentCreateRequest', spec({ volumes: [{ name: 'a' }, { name: 2 }] })))).toEqual([
      { loc: ['source_config', 'resource_spec', 'volumes', 1, 'name'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
  });

  it('keeps keys with / and ~ intact', () => {
    expect(issuesOf(validate('DeploymentCreateRequest', spec({ annotations: { 'example.org/a~b': false } })))).toEqual([
      { loc: ['source_config', 'resource_spec', 'annotations', 'example.org/a~b'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
  });

  it('gives a nullable field one issue: the type, or the problem inside the value', () => {
    expect(issuesOf(validate('DeploymentPatchRequest', { secrets: 'x' }))).toEqual([{ loc: ['secrets'], msg: 'Input should be a valid list', type: 'list_type' }]);
    expect(issuesOf(validate('DeploymentPatchRequest', { secrets: [{ name: 'a', value: 1 }] }))).toEqual([
      { loc: ['secrets', 0, 'value'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
    expect(issuesOf(validate('DeploymentPatchRequest', { source_config: { listener_id: 12 } }))).toEqual([
      { loc: ['source_config', 'listener_id'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
    expect(issuesOf(validate('DeploymentPatchRequest', { source_config: { deployment_type: 3 } }))).toEqual([
      { loc: ['source_config', 'deployment_type'], msg: "Input should be 'dev_free', 'dev' or 'prod'", type: 'enum' },
    ]);
  });

  it('words bounds, formats, patterns and cross-field rules', () => {
    expect(issuesOf(validate('DeploymentCreateRequest', spec({ cpu: -0.5 })))).toEqual([
      { loc: ['source_config', 'resource_spec', 'cpu'], msg: 'Input should be greater than 0', type: 'greater_than' },
    ]);
    expect(issuesOf(validate('Thread', { thread_id: 'x' }))).toEqual([{ loc: ['thread_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }]);
    expect(issuesOf(validate('EnvVar', { name: 'has space' }))).toEqual([
      { loc: ['name'], msg: "String should match pattern '^[A-Za-z_][A-Za-z0-9_]*$'", type: 'string_pattern_mismatch' },
    ]);
    expect(issuesOf(validate('EnvVar', { name: 'A', value: 'set', valueFrom: { fieldRef: {} } }))).toEqual([
      { loc: [], msg: 'valueFrom cannot be used when value is non-empty', type: 'value_error' },
    ]);
    expect(validate('EnvVar', { name: 'A', value: '', valueFrom: { fieldRef: {} } })).toEqual({ ok: true });
    expect(validate('EnvVar', { name: 'A', value: null, valueFrom: { fieldRef: {} } })).toEqual({ ok: true });
  });

  it('refuses a value of the wrong kind at the root with an empty loc', () => {
    expect(issuesOf(validate('ThreadCreateRequest', null))).toEqual([{ loc: [], msg: 'Input should be a valid dictionary', type: 'dict_type' }]);
    expect(issuesOf(validate('ThreadCreateRequest', undefined))).toEqual([{ loc: [], msg: 'Input should be a valid dictionary', type: 'dict_type' }]);
  });

  it('gives the same answer when asked twice (the validator is compiled once and reused)', () => {
    const value = { assistant_id: 3, stream_mode: {} };
    expect(validate('RunStreamRequest', value)).toEqual(validate('RunStreamRequest', value));
  });
});
