// Agent server types (spec 2.7, 4.2). Request fields beyond the spec's (assistant_id, if_exists,
// description, config, thread_id) are those of the public agent server API the reference serves;
// all are optional, so a spec-only client is unaffected.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, FreeObject, named, OptionalNullable, StringEnum, Uuid } from './json-types.ts';

const IfExists = StringEnum(['raise', 'do_nothing'], { description: 'What to do when the id is taken. Default: raise.' });

/** Every field the spec's table lists is required: the table is the assistant's shape. */
export const Assistant = Type.Object(
  {
    assistant_id: Uuid(),
    graph_id: Type.String({ description: 'Graph name.' }),
    name: Type.String(),
    context: FreeObject({ description: "Matches the graph's context schema." }),
    metadata: FreeObject(),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  named('Assistant'),
);
export type Assistant = Static<typeof Assistant>;

const assistantConfigFields = {
  name: Type.Optional(Type.String()),
  description: OptionalNullable(Type.String()),
  context: Type.Optional(FreeObject()),
  metadata: Type.Optional(FreeObject()),
  config: Type.Optional(FreeObject()),
};

export const AssistantCreateRequest = Type.Object(
  {
    graph_id: Type.String(),
    ...assistantConfigFields,
    assistant_id: Type.Optional(Uuid()),
    if_exists: Type.Optional(IfExists),
  },
  named('AssistantCreateRequest'),
);
export type AssistantCreateRequest = Static<typeof AssistantCreateRequest>;

export const AssistantPatchRequest = Type.Object(
  { graph_id: Type.Optional(Type.String()), ...assistantConfigFields },
  named('AssistantPatchRequest', 'The whole configuration of the new version: nothing is merged with earlier versions.'),
);
export type AssistantPatchRequest = Static<typeof AssistantPatchRequest>;

export const SetLatestRequest = Type.Object({ version: Type.Integer({ minimum: 1 }) }, named('SetLatestRequest'));
export type SetLatestRequest = Static<typeof SetLatestRequest>;

const pageFields = {
  metadata: Type.Optional(FreeObject({ description: 'Matches records whose metadata contains these entries.' })),
  limit: Type.Optional(Type.Integer()),
  offset: Type.Optional(Type.Integer()),
};

export const AssistantSearchRequest = Type.Object(
  { ...pageFields, graph_id: Type.Optional(Type.String()) },
  named('AssistantSearchRequest'),
);
export type AssistantSearchRequest = Static<typeof AssistantSearchRequest>;

export const AssistantVersionsRequest = Type.Object(pageFields, named('AssistantVersionsRequest'));
export type AssistantVersionsRequest = Static<typeof AssistantVersionsRequest>;

/** The spec shows only `thread_id`. */
export const Thread = Type.Object({ thread_id: Uuid() }, named('Thread'));
export type Thread = Static<typeof Thread>;

export const ThreadCreateRequest = Type.Object(
  { thread_id: Type.Optional(Uuid()), metadata: Type.Optional(FreeObject()), if_exists: Type.Optional(IfExists) },
  named('ThreadCreateRequest', 'An empty object is allowed.'),
);
export type ThreadCreateRequest = Static<typeof ThreadCreateRequest>;

export const ThreadSearchRequest = Type.Object(pageFields, named('ThreadSearchRequest'));
export type ThreadSearchRequest = Static<typeof ThreadSearchRequest>;

export const RunStreamRequest = Type.Object(
  {
    assistant_id: Type.String({ description: "Assistant uuid, or a graph name for that graph's default assistant." }),
    input: OptionalNullable(FreeObject()),
    stream_mode: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
    context: Type.Optional(FreeObject()),
  },
  named('RunStreamRequest'),
);
export type RunStreamRequest = Static<typeof RunStreamRequest>;

export const agentServerSchemas = {
  Assistant,
  AssistantCreateRequest,
  AssistantPatchRequest,
  SetLatestRequest,
  AssistantSearchRequest,
  AssistantVersionsRequest,
  Thread,
  ThreadCreateRequest,
  ThreadSearchRequest,
  RunStreamRequest,
};
