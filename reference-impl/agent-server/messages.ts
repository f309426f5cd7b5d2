// Chat messages in graph state: the forms a run input may use, their one stored form
// (`{type, content, id, ...}`), and the default `messages` reducer.
import { randomUUID } from 'node:crypto';
import type { ValidationIssue } from '../http-errors.ts';
import { isObject } from '../../schemas/is-object.ts';

export interface Message {
  type: string;
  content: unknown;
  id: string;
  [key: string]: unknown;
}

/** `role` spellings of chat APIs mapped to message `type`s. */
const ROLE_TO_TYPE: Record<string, string> = { user: 'human', human: 'human', assistant: 'ai', ai: 'ai', system: 'system', tool: 'tool' };


/** Problems with a `messages` value (a message, a string, or a list of them); empty when fine. */
export function messageIssues(value: unknown, loc: (string | number)[]): ValidationIssue[] {
  const items = Array.isArray(value) ? value : [value];
  const issues: ValidationIssue[] = [];
  items.forEach((item, index) => {
    const at = Array.isArray(value) ? [...loc, index] : loc;
    if (typeof item === 'string') return;
    if (!isObject(item)) {
      issues.push({ loc: at, msg: 'A message must be an object with `content` and `type` or `role`, or a string.', type: 'message_type' });
      return;
    }
    if (!('content' in item)) issues.push({ loc: [...at, 'content'], msg: 'Field required: a message needs `content`.', type: 'missing' });
    const kind = typeof item.type === 'string' ? item.type : typeof item.role === 'string' ? ROLE_TO_TYPE[item.role] : undefined;
    if (kind === undefined) {
      issues.push({ loc: at, msg: 'A message needs `type` (human, ai, system, tool) or `role` (user, human, assistant, ai, system, tool).', type: 'message_type' });
    }
    if ('id' in item && item.id !== null && typeof item.id !== 'string') {
      issues.push({ loc: [...at, 'id'], msg: 'A message `id` must be a string.', type: 'string_type' });
    }
  });
  return issues;
}

/** The stored form of one message; call only on values `messageIssues` accepts. */
export function toMessage(value: unknown): Message {
  if (typeof value === 'string') return { type: 'human', content: value, id: randomUUID() };
  const { role, ...rest } = value as Record<string, unknown>;
  const type = typeof rest.type === 'string' ? rest.type : ROLE_TO_TYPE[String(role)] ?? 'human';
  const id = typeof rest.id === 'string' ? rest.id : randomUUID();
  return { ...rest, type, content: rest.content, id };
}

export function toMessages(value: unknown): Message[] {
  return (Array.isArray(value) ? value : [value]).map(toMessage);
}

/** Appends messages; one whose `id` is already present replaces it in place. */
export function appendMessages(current: unknown, update: unknown): Message[] {
  const merged = Array.isArray(current) ? [...(current as Message[])] : [];
  for (const message of toMessages(update)) {
    const at = merged.findIndex((m) => m.id === message.id);
    if (at >= 0) merged[at] = message;
    else merged.push(message);
  }
  return merged;
}
