// Generated protocol mutants: derived by a program from the spec's types (schemas/) and endpoints
// (endpoints.ts), with no knowledge of the suites. For each response type and field: stale value,
// swapped identity, dropped field, wrong type, null where not nullable, value outside its enum;
// for each listing: reordered list, foreign item; for each request member: ignored input; for each
// endpoint: a success code swapped for another, a refusal code for another. Each is a proxy in
// front of the reference, so it is one more selftest subject. A generated mutant is caught when
// its certification fails any requirement; `catches` names the requirements the traceability map
// gives the field's (or endpoint's) statement, as a pointer for whoever reads a survivor.
import { randomUUID } from 'node:crypto';
import { isObject } from '../../../../schemas/is-object.ts';
import { editJson, editRequestJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../../../proxy/proxy.ts';
import { readTraceability } from '../../../traceability/read-map.ts';
import type { Family, Mutant } from '../../subjects.ts';
import { ENDPOINTS, matches, REFUSALS, TYPES, type Endpoint } from './endpoints.ts';
import { fieldsOf, wrongTypeValue, type FieldShape } from './fields.ts';
import { mutantOf } from '../mutant-record.ts';

type Json = Record<string, unknown>;

export const OPERATORS = [
  'stale',
  'swapped-identity',
  'dropped',
  'wrong-type',
  'null',
  'outside-enum',
  'reordered',
  'foreign-item',
  'ignored-input',
  'wrong-status',
] as const;
export type Operator = (typeof OPERATORS)[number];

const FAMILY: Record<string, Family> = { 'control-plane': 'create and sources', 'agent-server': 'assistants and threads', 'experiment-upload': 'experiments' };

/** The objects of `type` an answer of `endpoint` carries. */
function carried(endpoint: Endpoint, type: string, json: unknown): Json[] {
  const out: Json[] = [];
  for (const c of endpoint.carries ?? []) {
    if (c.type !== type) continue;
    if (c.at === 'body' && isObject(json)) out.push(json);
    else if (c.at === 'items') {
      const items = Array.isArray(json) ? json : isObject(json) && Array.isArray(json.resources) ? json.resources : [];
      out.push(...items.filter(isObject));
    } else if (c.at.startsWith('member:') && isObject(json)) {
      const member = json[c.at.slice('member:'.length)];
      if (isObject(member)) out.push(member);
    }
  }
  return out;
}

/** A proxy that applies `edit` to every object of `type` in a success answer of the spec's endpoints. */
function onType(type: string, edit: (object: Json, request: ProxiedRequest) => void): () => ProxyRules {
  return () => ({
    answer(request, answer) {
      if (answer.status < 200 || answer.status >= 300) return answer;
      const endpoint = ENDPOINTS.find((e) => matches(e, request.method, request.path) && e.carries?.some((c) => c.type === type));
      if (!endpoint) return answer;
      return editJson(answer, (json) => {
        for (const object of carried(endpoint, type, json)) edit(object, request);
      });
    },
  });
}

/** The identity of an object of a type: its first uuid field (id, assistant_id, thread_id). */
function identity(type: string, object: Json): string | undefined {
  const id = fieldsOf(TYPES[type]!.schema).find((f) => f.format === 'uuid' && /(^|_)id$/.test(f.name) && f.name !== 'tenant_id');
  return id && typeof object[id.name] === 'string' ? (object[id.name] as string) : undefined;
}

/** The field keeps the first value seen for the same resource (an earlier answer about it). */
function stale(type: string, field: string): () => ProxyRules {
  return () => {
    const first = new Map<string, unknown>();
    return onType(type, (object) => {
      const id = identity(type, object);
      if (id === undefined || !(field in object)) return;
      if (!first.has(id)) first.set(id, structuredClone(object[field]));
      object[field] = structuredClone(first.get(id));
    })();
  };
}

/** The id field shows another resource's id of the same kind (one seen earlier), when there is one. */
function swapped(type: string, field: string): () => ProxyRules {
  return () => {
    const seen: string[] = [];
    return onType(type, (object) => {
      const value = object[field];
      if (typeof value !== 'string') return;
      const other = seen.find((s) => s !== value);
      if (!seen.includes(value)) seen.push(value);
      if (other) object[field] = other;
    })();
  };
}

/** A listing's items in reverse order, or with a foreign item: a copy of its first with fresh ids (another tenant's or parent's). */
function listing(endpoint: Endpoint, operator: 'reordered' | 'foreign-item'): () => ProxyRules {
  return () => ({
    answer(request, answer) {
      if (!matches(endpoint, request.method, request.path) || answer.status !== endpoint.success) return answer;
      return editJson(answer, (json) => {
        const items = (Array.isArray(json) ? json : isObject(json) && Array.isArray(json.resources) ? json.resources : undefined) as unknown[] | undefined;
        if (!items || items.length === 0) return;
        if (operator === 'reordered') items.reverse();
        else {
          const foreign = structuredClone(items[0]) as Json;
          for (const [key, value] of Object.entries(foreign))
            if (typeof value === 'string' && /(^|_)id$/.test(key) && /^[0-9a-f-]{36}$/i.test(value)) foreign[key] = randomUUID();
          items.push(foreign);
        }
      });
    },
  });
}

/** The request member is ignored: the proxy takes it out of the body before the target sees it. */
function ignored(endpoint: Endpoint, member: string): () => ProxyRules {
  return () => ({
    request: (request) => (matches(endpoint, request.method, request.path) ? editRequestJson(request, (json) => void delete json[member]) : request),
  });
}

/** A success code swapped for another success code, or a refusal code for another refusal code. */
function wrongStatus(endpoint: Endpoint, from: number, to: number): () => ProxyRules {
  return () => ({
    answer: (request: ProxiedRequest, answer: ProxiedAnswer) =>
      matches(endpoint, request.method, request.path) && answer.status === from ? { ...answer, status: to } : answer,
  });
}

function idsOf(traces: ReturnType<typeof readTraceability>['traces'], anchor: string): string[] {
  const trace = traces.get(anchor);
  return trace && 'ids' in trace ? trace.ids : [];
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Adds one generated mutant to `out`. */
type Add = (iface: Mutant['interface'], id: string, operator: Operator, what: string, anchor: string, rules: () => ProxyRules, mode?: Mutant['mode']) => void;

/** Every generated mutant, in a stable order: those of the answers' fields, then those of the endpoints. */
export function generatedMutants(): Mutant[] {
  const out: Mutant[] = [];
  // Read once: parsing traceability.yaml for each of hundreds of mutants took seconds.
  const add = adder(out, readTraceability().traces);
  fieldMutants(add);
  endpointMutants(add);
  return out;
}

function adder(out: Mutant[], traces: ReturnType<typeof readTraceability>['traces']): Add {
  // A record like every other mutant's (mutant-record.ts); what it breaks is the spec's statement at its traceability anchor.
  return (iface: Mutant['interface'], id: string, operator: Operator, what: string, anchor: string, rules: () => ProxyRules, mode: Mutant['mode'] = 'hosted') =>
    void out.push(
      mutantOf(iface, {
        id: `gen.${id}`,
        what: `[${operator}] ${what}`,
        breaks: `The spec's statement at ${anchor} (requirements/traceability.yaml).`,
        family: FAMILY[iface]!,
        fails: { mode, requirements: idsOf(traces, anchor) },
        rules,
      }),
    );
}

/** The mutants of each field of each type an answer carries: stale, swapped, dropped, of another type, null, outside its enum. */
function fieldMutants(add: Add): void {
  const responseTypes = [...new Set(ENDPOINTS.flatMap((e) => (e.carries ?? []).map((c) => c.type)))];
  for (const type of responseTypes) {
    const { schema, interface: iface, section } = TYPES[type]!;
    for (const field of fieldsOf(schema)) {
      const anchor = `${section}/${field.name}`;
      // Most SourceConfig members and secret_references apply to external_container alone (2.2),
      // which only a self-hosted control plane offers (2.1): their changes are visible there.
      const mode = type === 'Deployment' && (field.name === 'source_config' || field.name === 'secret_references') ? 'self-hosted' : undefined;
      const name = `${slug(type)}.${field.name}`;
      const edit = (operator: Operator, what: string, change: (object: Json) => void) =>
        add(
          iface,
          `${name}.${operator}`,
          operator,
          `${type}.${field.name} ${what}`,
          anchor,
          onType(type, (o) => field.name in o && change(o)),
          mode,
        );
      add(
        iface,
        `${name}.stale`,
        'stale',
        `${type}.${field.name} keeps the value of the first answer about the same resource`,
        anchor,
        stale(type, field.name),
        mode,
      );
      if (field.format === 'uuid')
        add(
          iface,
          `${name}.swapped-identity`,
          'swapped-identity',
          `${type}.${field.name} shows another resource's id of the same kind`,
          anchor,
          swapped(type, field.name),
        );
      if (field.required) edit('dropped', 'is missing', (o) => void delete o[field.name]);
      const wrong = wrongTypeValue(field);
      if (wrong !== undefined) edit('wrong-type', `has a value of another type (${JSON.stringify(wrong)})`, (o) => void (o[field.name] = wrong));
      if (!field.nullable && field.required) edit('null', 'is null although not nullable', (o) => void (o[field.name] = null));
      if (field.enum) edit('outside-enum', 'holds a value outside its enum', (o) => void (o[field.name] = 'NOT_IN_ENUM'));
    }
  }
}

/** The mutants of each endpoint: its listing reordered or with a foreign item, a request member ignored, a wrong status. */
function endpointMutants(add: Add): void {
  for (const endpoint of ENDPOINTS) {
    const where = `${endpoint.method} ${endpoint.path}`;
    const id = slug(`${endpoint.method} ${endpoint.path}`);
    if (endpoint.carries?.some((c) => c.at === 'items')) {
      add(endpoint.interface, `${id}.reordered`, 'reordered', `${where} lists its items in reverse order`, endpoint.anchor, listing(endpoint, 'reordered'));
      add(
        endpoint.interface,
        `${id}.foreign-item`,
        'foreign-item',
        `${where} lists an item of another tenant or parent`,
        endpoint.anchor,
        listing(endpoint, 'foreign-item'),
      );
    }
    if (endpoint.request) {
      for (const member of fieldsOf(TYPES[endpoint.request]!.schema)) {
        add(
          endpoint.interface,
          `${id}.ignored-input.${member.name}`,
          'ignored-input',
          `${where} ignores the request member ${member.name}`,
          endpoint.anchor,
          ignored(endpoint, member.name),
        );
      }
    }
    const success = endpoint.success === 200 ? 201 : 200;
    add(
      endpoint.interface,
      `${id}.wrong-status.${endpoint.success}-${success}`,
      'wrong-status',
      `${where} answers ${success} instead of ${endpoint.success}`,
      endpoint.anchor,
      wrongStatus(endpoint, endpoint.success, success),
    );
    if (endpoint.interface === 'control-plane' && endpoint.method === 'PATCH') {
      for (const [from, to] of Object.entries(REFUSALS)) {
        add(
          endpoint.interface,
          `${id}.wrong-status.${from}-${to}`,
          'wrong-status',
          `${where} refuses with ${to} where the spec gives ${from}`,
          '7/' + from,
          wrongStatus(endpoint, Number(from), to),
        );
      }
    }
  }
}

/** The operator a generated mutant applies, from its description. */
export function operatorOf(mutant: Mutant): Operator | undefined {
  return OPERATORS.find((o) => mutant.what.startsWith(`[${o}]`));
}

export type { FieldShape };
