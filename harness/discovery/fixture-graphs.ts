// Discovery proves the fixture graphs by running them, not by a 2xx alone: some servers accept any
// graph_id when an assistant is created (the graph is only looked up when it runs). The fixture
// graph must stream a run to its end; the failing graph must make a run fail (an `error` event,
// field notes: "A failing graph yields `event: error`", or a run status that says it failed), or it
// is left out and its rules are not applicable. A graph id that cannot exist is tried first: a
// target that accepts it gets a note saying so.
import { randomBytes } from 'node:crypto';
import { isObject } from '../../schemas/is-object.ts';
import type { InterfaceClient } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { readSse, type SseResult } from '../sse/reader.ts';
import type { Finding } from '../profile/discovered.ts';
import type { TargetProfile } from '../profile/profile.ts';

type Auth = 'none' | 'default';

const status = (e: Exchange) => e.response?.status ?? 0;
const ok = (e: Exchange) => status(e) >= 200 && status(e) < 300;
const seen = (e: Exchange) => (e.response ? `${e.response.status}` : `no answer (${e.error ?? 'unknown'})`);

/** What a stateless run of a graph showed. */
export interface GraphRun {
  /** The assistant's create answer. */
  created: Exchange;
  /** The run's stream, when the assistant was made and the run answered with one. */
  stream?: SseResult;
  /** The run's answer when it did not stream. */
  refused?: Exchange;
}

/** A run status in an event's data that says it failed (a server may report one instead of an `error` event). */
const FAILED_STATUSES = ['error', 'failed'];

export const failedRun = (r: GraphRun): boolean =>
  r.stream !== undefined &&
  r.stream.events.some((e) => {
    if (e.event === 'error') return true;
    try {
      const data: unknown = JSON.parse(e.data);
      return isObject(data) && typeof data.status === 'string' && FAILED_STATUSES.includes(data.status);
    } catch {
      return false;
    }
  });

export const ranToEnd = (r: GraphRun): boolean => r.stream !== undefined && r.stream.ended && !r.stream.timedOut && !failedRun(r);

/** Makes an assistant of `graphId`, runs it once without a thread, and deletes it again. */
async function runGraph(as: InterfaceClient, profile: TargetProfile, runId: string, graphId: string, auth: Auth): Promise<GraphRun> {
  const created = await as.post('/assistants', { graph_id: graphId, name: `${runId}-init-${graphId}`, context: {} }, { auth });
  const id = isObject(created.response?.json) ? created.response.json.assistant_id : undefined;
  if (!ok(created) || typeof id !== 'string') return { created };
  try {
    const body = { assistant_id: id, input: { messages: [{ type: 'human', content: 'apc init: does this graph run?' }] }, stream_mode: ['updates'] };
    const opened = await as.openStream({ method: 'POST', path: '/runs/stream', body, auth });
    if (!('body' in opened)) return { created, refused: opened };
    if (!ok(opened.exchange)) {
      opened.abort('not a stream');
      return { created, refused: opened.exchange };
    }
    return { created, stream: await readSse(opened, { timeoutMs: profile.timeouts.streamMs }) };
  } finally {
    await as.delete(`/assistants/${id}`, { auth });
  }
}

function streamSeen(r: GraphRun): string {
  if (!r.stream) return r.refused ? `the run answered ${seen(r.refused)}` : 'no run';
  const kinds = [...new Set(r.stream.events.map((e) => e.event ?? 'message'))].join(', ') || 'none';
  const end = r.stream.timedOut ? 'did not end in time' : r.stream.ended ? 'ended' : `broke off${r.stream.error ? ` (${r.stream.error})` : ''}`;
  return `a run streamed ${r.stream.events.length} events (kinds: ${kinds}) and ${end}`;
}

export interface FixtureFindings {
  /** The failing graph, when a run of it was shown to fail. */
  failingGraphId?: string;
  notes: Finding[];
}

export async function proveFixtureGraphs(as: InterfaceClient, profile: TargetProfile, runId: string, auth: Auth): Promise<FixtureFindings> {
  const notes: Finding[] = [];
  const nowhere = `apc-no-such-graph-${randomBytes(6).toString('hex')}`;
  const probe = await as.post('/assistants', { graph_id: nowhere, name: `${runId}-init-no-such-graph`, context: {} }, { auth });
  const probeId = isObject(probe.response?.json) ? probe.response.json.assistant_id : undefined;
  if (ok(probe) && typeof probeId === 'string') await as.delete(`/assistants/${probeId}`, { auth });
  const anyGraph = ok(probe);
  if (anyGraph) {
    notes.push({
      key: 'fixtures',
      how: `POST /assistants with graph_id ${nowhere}, a graph that cannot exist, answered ${seen(probe)}: this target accepts any graph id, so a create says nothing of a graph; each fixture was run instead`,
    });
  }

  const echo = await runGraph(as, profile, runId, profile.fixtures.graphId, auth);
  const created = `POST /assistants with graph_id ${profile.fixtures.graphId} answered ${seen(echo.created)}`;
  notes.push({
    key: 'fixtures.graphId',
    how: !ok(echo.created)
      ? `${created}: the fixture graph seems missing; serve it (README, "The echo fixture graph")`
      : ranToEnd(echo)
        ? `${created}; ${streamSeen(echo)}`
        : `${created}, but ${streamSeen(echo)}: the run rules will show why`,
  });

  const failing = profile.fixtures.failingGraphId ?? 'fail';
  const fail = await runGraph(as, profile, runId, failing, auth);
  const asked = `POST /assistants with graph_id ${failing} answered ${seen(fail.created)}`;
  if (failedRun(fail)) {
    notes.push({ key: 'fixtures.failingGraphId', how: `${asked}; ${streamSeen(fail)}: the run failed` });
    return { failingGraphId: failing, notes };
  }
  const why = ok(fail.created) ? `${asked}, but ${streamSeen(fail)}, with no error event or failed status` : asked;
  notes.push({ key: 'fixtures.failingGraphId', how: `${why}: not shown to fail, left out; its rules are not applicable` });
  return { notes };
}
