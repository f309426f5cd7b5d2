// Valid variations: the reference behind a proxy that answers as the spec allows but the
// reference does not. The harness must certify each: any MUST it fails or blocks is a false alarm.
import { gzipSync } from 'node:zlib';
import type { EncodingStyle } from '../../generators/sse/encoding.ts';
import { INTERFACES, type InterfaceName } from '../profile/profile.ts';
import { isObject } from '../../schemas/is-object.ts';
import { editJson, type ProxiedAnswer, type ProxiedRequest, type ProxyRules } from '../proxy/proxy.ts';
import { isEventStream, rewriteStream } from '../proxy/sse-rewrite.ts';
import type { Variation } from './subjects.ts';

const SHORT: Record<InterfaceName, string> = { 'control-plane': 'cp', 'agent-server': 'as', 'experiment-upload': 'eu' };

/** Every SSE liberty at once: BOM, mixed line ends, comments, data before event, tight colons, retry and unknown fields. */
const UNUSUAL: EncodingStyle = {
  byteOrderMark: true,
  lineEndings: ['CRLF', 'LF', 'CR'],
  colons: ['tight', 'space'],
  comments: [' heartbeat', null, ''],
  commentsInsideBlocks: true,
  dataFirst: true,
  ids: false,
  retry: 1500,
  unknownField: true,
  extraBlankLines: [1, 0],
  trailingComment: true,
};

const WITH_IDS: EncodingStyle = { ...UNUSUAL, byteOrderMark: false, lineEndings: ['LF'], colons: ['space'], comments: [null], commentsInsideBlocks: false, dataFirst: false, ids: true, retry: null, unknownField: false, extraBlankLines: [0], trailingComment: false };

/** JSON objects anywhere in a value, rebuilt by `edit` (bottom-up). */
function mapObjects(value: unknown, edit: (o: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, edit));
  if (!isObject(value)) return value;
  return edit(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapObjects(v, edit)])));
}

/** The JSON of an answer (or of each event of a stream), rewritten by `edit`. */
function everyJson(edit: (json: unknown) => unknown): ProxyRules {
  return {
    answer: (_r, a) =>
      isEventStream(a)
        ? rewriteStream(a, (blocks) => blocks.map((b) => (b.data === undefined ? b : { ...b, data: JSON.stringify(edit(JSON.parse(b.data))) })))
        : /json/.test(a.headers['content-type'] ?? '') && a.body.length > 0
          ? { ...a, body: Buffer.from(JSON.stringify(edit(JSON.parse(a.body.toString('utf8'))))) }
          : a,
  };
}

/** `2026-01-02T03:04:05.678Z` → the same instant written with a +05:30 offset. */
function withOffset(text: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(text);
  if (!match) return text;
  const shifted = new Date(Date.parse(`${match[1]}Z`) + 330 * 60_000).toISOString().slice(0, 19);
  return `${shifted}${match[2] ?? ''}+05:30`;
}

const onStreams = (edit: (a: ProxiedAnswer) => ProxiedAnswer): ProxyRules => ({ answer: (_r, a) => (isEventStream(a) ? edit(a) : a) });

const bytesOf = (a: ProxiedAnswer, size: number): Buffer[] => Array.from({ length: Math.ceil(a.body.length / size) }, (_, i) => a.body.subarray(i * size, i * size + size));

/** Variations that apply to every interface alike. */
function perInterface(): Variation[] {
  return INTERFACES.flatMap((iface): Variation[] => [
    {
      kind: 'variation',
      id: `${SHORT[iface]}.json-extra-fields`,
      what: 'Every JSON object answered (bodies, list items, events) carries extra fields the spec does not name.',
      interface: iface,
      proxy: () => everyJson((json) => (isObject(json) ? { ...json, x_vendor: { region: 'eu-1' } } : Array.isArray(json) ? json.map((v) => (isObject(v) ? { ...v, x_vendor: 1 } : v)) : json)),
    },
    {
      kind: 'variation',
      id: `${SHORT[iface]}.json-key-order`,
      what: 'Every JSON object is written with its keys in reverse order.',
      interface: iface,
      proxy: () => everyJson((json) => mapObjects(json, (o) => Object.fromEntries(Object.entries(o).reverse()))),
    },
    {
      kind: 'variation',
      id: `${SHORT[iface]}.timestamps-with-offsets`,
      what: 'Every UTC timestamp answered is written as the same instant with a +05:30 offset.',
      interface: iface,
      proxy: () => everyJson((json) => mapObjects(json, (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? withOffset(v) : v])))),
    },
    {
      kind: 'variation',
      id: `${SHORT[iface]}.extra-headers`,
      what: 'Every answer carries extra headers: request id, server timing, cache-control, vary, a charset on JSON.',
      interface: iface,
      proxy: () => ({
        answer: (_r, a) => ({
          ...a,
          headers: {
            ...a.headers,
            'x-request-id': 'req-0001',
            'server-timing': 'db;dur=1.2',
            'cache-control': 'no-store',
            vary: 'Accept-Encoding, Origin',
            ...(/^application\/json$/.test(a.headers['content-type'] ?? '') ? { 'content-type': 'application/json; charset=utf-8' } : {}),
          },
        }),
      }),
    },
    {
      kind: 'variation',
      id: `${SHORT[iface]}.chunked-transfer`,
      what: 'Every answer is sent with chunked transfer encoding, in 7-byte chunks.',
      interface: iface,
      proxy: () => ({ chunks: (a) => bytesOf(a, 7) }),
    },
    {
      kind: 'variation',
      id: `${SHORT[iface]}.compressed`,
      what: 'Every answer is gzip-compressed when the request accepts gzip (Content-Encoding: gzip).',
      interface: iface,
      proxy: () => ({
        answer: (r: ProxiedRequest, a) =>
          /gzip/.test(r.headers['accept-encoding'] ?? '') && a.body.length > 0 ? { ...a, headers: { ...a.headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' }, body: gzipSync(a.body) } : a,
      }),
    },
  ]);
}

export function variations(): Variation[] {
  return [
    ...perInterface(),
    {
      kind: 'variation',
      id: 'as.sse-unusual-framing',
      what: 'Every event stream re-encoded as SSE allows: BOM, CRLF/LF/CR line ends, comments and heartbeats, data before event, no space after colons, retry and unknown fields, pretty-printed JSON over several data lines, 5-byte chunks.',
      interface: 'agent-server',
      proxy: () => ({
        ...onStreams((a) => rewriteStream(a, (blocks) => blocks.map((b) => (b.data === undefined ? b : { ...b, data: JSON.stringify(JSON.parse(b.data), null, 2) })), UNUSUAL)),
        chunks: (a) => (isEventStream(a) ? bytesOf(a, 5) : [a.body]),
      }),
    },
    {
      kind: 'variation',
      id: 'as.sse-byte-at-a-time',
      what: 'Every event stream is written one byte at a time.',
      interface: 'agent-server',
      proxy: () => ({ chunks: (a) => (isEventStream(a) ? bytesOf(a, 1) : [a.body]) }),
    },
    {
      kind: 'variation',
      id: 'as.sse-ids-and-unknown-events',
      what: 'Every event carries an id: field, and an event of a kind the spec does not name follows the metadata event.',
      interface: 'agent-server',
      proxy: () =>
        onStreams((a) =>
          rewriteStream(
            a,
            (blocks) => blocks.flatMap((b, i) => [{ ...b, id: String(i + 1) }, ...(b.event === 'metadata' ? [{ event: 'x-progress', data: '{"step":0}' }] : [])]),
            WITH_IDS,
          ),
        ),
    },
    otherControlPlaneShapes(),
  ];
}

/** A revision with its SourceRevisionConfig members at the top level. */
const flat = (revision: unknown): unknown => {
  if (!isObject(revision) || !isObject(revision.source_revision_config)) return revision;
  const { source_revision_config: values, ...rest } = revision;
  return { ...rest, ...values };
};

const json = (status: number, body: unknown, a: ProxiedAnswer): ProxiedAnswer => ({ status, headers: { ...a.headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });

/**
 * The self-hosted control plane answering where the spec leaves room: 403 for a missing or bad key,
 * 422 for every refused PATCH or create, 404 details in other words, the deployments listing as a
 * plain array, revisions with their values at the top level, upload-url only under /v2, and a PATCH that
 * ignores `name` and `source` instead of refusing them.
 */
function otherControlPlaneShapes(): Variation {
  return {
    kind: 'variation',
    id: 'cp.other-codes-and-shapes',
    what: '403 for bad keys, 422 for every refusal, other 404 wording, a plain-array listing, flat revisions, upload-url only under /v2, immutable fields in a PATCH ignored (self-hosted).',
    interface: 'control-plane',
    mode: 'self-hosted',
    // Field-notes shapes (SHOULD/MAY) that these answers depart from on purpose.
    departs: ['CP-READ-004', 'CP-READ-005', 'CP-ERR-009', 'CP-REVL-007', 'CP-REVL-010'],
    proxy: () => ({
      request(r) {
        const path = r.path.split('?')[0]!;
        if (r.method === 'POST' && /^\/deployments\/[^/]+\/upload-url$/.test(path)) return { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"detail":"Not Found"}') };
        if (r.method !== 'PATCH' || r.body.length === 0) return r;
        try {
          const body = JSON.parse(r.body.toString('utf8')) as unknown;
          if (!isObject(body)) return r;
          const { name: _name, source: _source, ...rest } = body;
          return { ...r, body: Buffer.from(JSON.stringify(rest)) };
        } catch {
          return r;
        }
      },
      answer(r, a) {
        const path = r.path.split('?')[0]!.replace(/^\/api-host/, '');
        if (a.status === 401) return json(403, { detail: 'Forbidden.' }, a);
        if (a.status === 404) return editJson(a, (b) => void (typeof b.detail === 'string' && (b.detail = b.detail.replace(/^Deployment ID (\S+) not found\.$/, 'No deployment $1 exists in this workspace.'))));
        if (a.status === 400 && (r.method === 'PATCH' || (r.method === 'POST' && path === '/v2/deployments'))) {
          const detail = (() => {
            try {
              return String((JSON.parse(a.body.toString('utf8')) as { detail?: unknown }).detail);
            } catch {
              return 'invalid';
            }
          })();
          return json(422, { detail: [{ loc: ['body'], msg: detail, type: 'value_error' }] }, a);
        }
        if (a.status !== 200 || r.method !== 'GET') return a;
        const body = JSON.parse(a.body.toString('utf8')) as unknown;
        if (path === '/v2/deployments' && isObject(body) && Array.isArray(body.resources)) return json(200, body.resources, a);
        if (/\/revisions$/.test(path) && isObject(body) && Array.isArray(body.resources)) return json(200, { ...body, resources: body.resources.map(flat) }, a);
        if (/\/revisions\/[^/]+$/.test(path)) return json(200, flat(body), a);
        return a;
      },
    }),
  };
}
