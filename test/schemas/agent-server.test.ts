// Agent server schemas (spec 2.7, 4.2; FIELD-NOTES for the thread body).
import { describe, expect, it } from 'vitest';
import { expectIssue, expectValid, withField } from './expect-validation.ts';

const ASSISTANT_ID = '3f9a1c2e-8b7d-4e6f-9a0b-1c2d3e4f5a6b';
const THREAD_ID = '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const assistant = {
  assistant_id: ASSISTANT_ID,
  graph_id: 'agent',
  name: 'Support assistant',
  description: null,
  context: { model: 'small', temperature: 0.2 },
  metadata: { team: 'support' },
  config: {},
  version: 1,
  created_at: '2025-06-01T10:00:00.123456+00:00',
  updated_at: '2025-06-01T10:00:00.123456+00:00',
};

describe('Assistant (response)', () => {
  it('accepts an assistant, with fields the spec does not show', () => expectValid('Assistant', assistant));

  it.each(['assistant_id', 'graph_id', 'name', 'context', 'metadata', 'created_at', 'updated_at'])('requires %s', (field) => {
    expectIssue('Assistant', withField(assistant, [field], undefined), [field], 'missing');
  });

  it('refuses wrong values', () => {
    expectIssue('Assistant', { ...assistant, assistant_id: 'agent' }, ['assistant_id'], 'uuid_parsing');
    expectIssue('Assistant', { ...assistant, context: null }, ['context'], 'dict_type');
    expectIssue('Assistant', { ...assistant, metadata: [] }, ['metadata'], 'dict_type');
    expectIssue('Assistant', { ...assistant, updated_at: 1717236000 }, ['updated_at'], 'string_type');
  });
});

describe('assistant requests', () => {
  it('accepts a create body with graph_id alone or with context, name and metadata', () => {
    expectValid('AssistantCreateRequest', { graph_id: 'agent' });
    expectValid('AssistantCreateRequest', { graph_id: 'agent', context: { model: 'large' }, name: 'Bot', metadata: { env: 'ci' } });
    expectValid('AssistantCreateRequest', { graph_id: 'agent', assistant_id: ASSISTANT_ID, if_exists: 'do_nothing', unknown_field: 1 });
  });

  it('refuses a create body without graph_id or with wrong types', () => {
    expectIssue('AssistantCreateRequest', { context: {} }, ['graph_id'], 'missing');
    expectIssue('AssistantCreateRequest', { graph_id: 7 }, ['graph_id'], 'string_type');
    expectIssue('AssistantCreateRequest', { graph_id: 'agent', context: 'large' }, ['context'], 'dict_type');
    expectIssue('AssistantCreateRequest', { graph_id: 'agent', name: 5 }, ['name'], 'string_type');
    expectIssue('AssistantCreateRequest', { graph_id: 'agent', assistant_id: 'mine' }, ['assistant_id'], 'uuid_parsing');
    expectIssue('AssistantCreateRequest', { graph_id: 'agent', if_exists: 'update' }, ['if_exists'], 'enum');
    expectIssue('AssistantCreateRequest', [], [], 'dict_type');
  });

  it('accepts any subset in a patch and refuses wrong types', () => {
    expectValid('AssistantPatchRequest', {});
    expectValid('AssistantPatchRequest', { context: { model: 'large' } });
    expectIssue('AssistantPatchRequest', { context: ['model'] }, ['context'], 'dict_type');
    expectIssue('AssistantPatchRequest', { metadata: 'x' }, ['metadata'], 'dict_type');
  });

  it('takes a set-latest version that is an integer of at least 1', () => {
    expectValid('SetLatestRequest', { version: 1 });
    expectValid('SetLatestRequest', { version: 42 });
    expect(expectIssue('SetLatestRequest', { version: 0 }, ['version'], 'greater_than_equal')).toEqual([
      { loc: ['version'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal' },
    ]);
    expectIssue('SetLatestRequest', { version: -3 }, ['version'], 'greater_than_equal');
    expectIssue('SetLatestRequest', { version: 1.5 }, ['version'], 'int_type');
    expectIssue('SetLatestRequest', { version: '2' }, ['version'], 'int_type');
    expectIssue('SetLatestRequest', {}, ['version'], 'missing');
  });

  it('checks search and version-listing bodies', () => {
    expectValid('AssistantSearchRequest', {});
    expectValid('AssistantSearchRequest', { metadata: { team: 'support' }, limit: 10, offset: 0, graph_id: 'agent' });
    expectIssue('AssistantSearchRequest', { limit: 'ten' }, ['limit'], 'int_type');
    expectIssue('AssistantSearchRequest', { offset: 0.5 }, ['offset'], 'int_type');
    expectIssue('AssistantSearchRequest', { metadata: 'team=support' }, ['metadata'], 'dict_type');
    expectValid('AssistantVersionsRequest', { limit: 5 });
    expectIssue('AssistantVersionsRequest', { limit: [5] }, ['limit'], 'int_type');
  });
});

describe('threads', () => {
  it('accepts a thread as the open-source server returns it, and requires thread_id', () => {
    expectValid('Thread', { thread_id: THREAD_ID, created_at: '2025-06-01T10:00:00+00:00', updated_at: '2025-06-01T10:00:00+00:00', metadata: {}, status: 'idle', config: {} });
    expectValid('Thread', { thread_id: THREAD_ID });
    expectIssue('Thread', { status: 'idle' }, ['thread_id'], 'missing');
    expectIssue('Thread', { thread_id: 'thread-1' }, ['thread_id'], 'uuid_parsing');
  });

  it('accepts an empty create body and refuses wrong types', () => {
    expectValid('ThreadCreateRequest', {});
    expectValid('ThreadCreateRequest', { thread_id: THREAD_ID, metadata: { user: 'u1' }, if_exists: 'raise' });
    expectIssue('ThreadCreateRequest', { thread_id: 'thread-1' }, ['thread_id'], 'uuid_parsing');
    expectIssue('ThreadCreateRequest', { metadata: 'user' }, ['metadata'], 'dict_type');
    expectValid('ThreadSearchRequest', { metadata: { user: 'u1' }, limit: 1 });
  });
});

describe('RunStreamRequest', () => {
  it('accepts stream_mode as a string or a list of strings, and an assistant uuid or graph name', () => {
    expectValid('RunStreamRequest', { assistant_id: 'agent', input: { messages: [{ role: 'user', content: 'hi' }] }, stream_mode: 'updates' });
    expectValid('RunStreamRequest', { assistant_id: ASSISTANT_ID, input: {}, stream_mode: ['updates', 'messages'] });
    expectValid('RunStreamRequest', { assistant_id: 'agent', input: null });
    expectValid('RunStreamRequest', { assistant_id: 'agent', stream_mode: [] });
  });

  it('refuses stream_mode as a number with one issue naming both accepted shapes', () => {
    const issues = expectIssue('RunStreamRequest', { assistant_id: 'agent', stream_mode: 5 }, ['stream_mode'], 'string_type');
    expect(issues).toEqual([{ loc: ['stream_mode'], msg: 'Input should be a valid string or a valid list', type: 'string_type' }]);
  });

  it('points at the bad item of a stream_mode list', () => {
    const issues = expectIssue('RunStreamRequest', { assistant_id: 'agent', stream_mode: ['updates', 3] }, ['stream_mode', 1], 'string_type');
    expect(issues).toHaveLength(1);
  });

  it('requires assistant_id and an object input', () => {
    expectIssue('RunStreamRequest', { input: {} }, ['assistant_id'], 'missing');
    expectIssue('RunStreamRequest', { assistant_id: 'agent', input: 'hello' }, ['input'], 'dict_type');
    expectIssue('RunStreamRequest', { assistant_id: 'agent', context: 1 }, ['context'], 'dict_type');
  });
});
