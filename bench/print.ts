// The short table `npm run bench` prints after writing the results file.
import type { CommandFigures } from './certification.ts';
import type { FeedbackResults } from './feedback.ts';
import { printFeedback } from './print-feedback.ts';
import type { OverheadFigures } from './harness-overhead.ts';
import type { PeerFigures } from './peer-ratios.ts';
import type { MemoryFigures } from './memory.ts';
import type { ScaleRow } from './scale.ts';
import type { StreamFigures } from './streams.ts';
import type { RevisionWaitFigures, WaitRun } from './revision-waits.ts';
import { printSlowPosts, type SlowPostsRun } from './slow-posts.ts';
import { round } from './support/load.ts';
import type { EndpointFigures } from './throughput.ts';

interface Results {
  load?: number[];
  certification?: CommandFigures[];
  feedback?: FeedbackResults;
  revisionWaits?: RevisionWaitFigures;
  harnessOverhead?: OverheadFigures;
  throughput?: Record<string, EndpointFigures[] | { skipped: string }>;
  streams?: StreamFigures[];
  peer?: PeerFigures;
  memory?: MemoryFigures;
  scale?: ScaleRow[];
  slowPosts?: SlowPostsRun[];
}

export function printSummary(raw: Record<string, unknown>): void {
  const r = raw as Results;
  const out = (line = '') => console.log(line);
  if (r.load) out(`load average at the start (1, 5, 15 min): ${r.load.join(', ')}`);
  if (r.certification) {
    out('certification (median wall / CPU incl. workers; fastest to slowest wall; load before)');
    for (const c of r.certification) {
      out(
        `  ${c.command.padEnd(42)} ${c.wallSeconds.toFixed(2)} s / ${c.cpuSeconds.toFixed(2)} s, ${c.wallRange[0].toFixed(2)}-${c.wallRange[1].toFixed(2)} s, load ${c.loadBefore}`,
      );
    }
  }
  if (r.feedback) printFeedback(r.feedback, out);
  if (r.revisionWaits) printRevisionWaits(r.revisionWaits, out);
  if (r.slowPosts) printSlowPosts(r.slowPosts, out);
  if (r.harnessOverhead) {
    const o = r.harnessOverhead;
    out(
      `harness overhead (${o.requirements}): ${o.harnessPerSecond} POST /v2/deployments per s (${o.allRequestsPerSecond} requests of any kind per s); autocannon 1 conn ${o.autocannonPerSecond.c1}/s (ratio ${o.ratio.c1}), 4 conn ${o.autocannonPerSecond.c4}/s (ratio ${o.ratio.c4})`,
    );
  }
  for (const [store, figures] of Object.entries(r.throughput ?? {})) {
    if ('skipped' in figures) {
      out(`throughput, ${store}: skipped (${figures.skipped.split('\n')[0]})`);
      continue;
    }
    out(`throughput, ${store} store, 10 connections (ratio = req/s ÷ GET /ok req/s)`);
    for (const f of figures)
      out(`  ${f.endpoint.padEnd(36)} ${String(f.perSecond).padStart(6)}/s  ratio ${f.ratioToOk.toFixed(2)}  p50 ${f.p50Ms} ms  p99 ${f.p99Ms} ms`);
  }
  if (r.streams) {
    out('run streams of echo (ms)');
    for (const s of r.streams) {
      out(
        `  ${`${s.server} ${s.kind}`.padEnd(22)} first event p50 ${s.firstEventMs.p50} p99 ${s.firstEventMs.p99} | close p50 ${s.closeMs.p50} p99 ${s.closeMs.p99}  (${s.runs} runs)`,
      );
    }
  }
  if (r.peer) {
    const [low, high] = r.peer.createAssistantRatioSpread;
    out(
      `peer: POST /assistants reference ${r.peer.reference.createAssistantPerSecond}/s vs peer ${r.peer.peer.createAssistantPerSecond}/s = ${r.peer.createAssistantRatio}x ` +
        `(median of ${r.peer.rounds.length} alternating rounds; rounds ${low}–${high}x)`,
    );
    for (const kind of ['stateless', 'thread']) {
      const [ref, peer] = ['reference', 'peer'].map((server) => r.streams?.find((s) => s.server === server && s.kind === kind));
      if (ref && peer) out(`peer: ${kind} run stream close p50 peer ÷ reference = ${(peer.closeMs.p50 / ref.closeMs.p50).toFixed(0)}x`);
    }
  }
  if (r.memory) {
    const m = r.memory;
    out(
      `memory: RSS ${m.rssMiB.afterStart} MiB at start, ${m.rssMiB.afterStatelessRequests} after ${m.requests} storing-nothing requests (+${m.statelessGrowthMiB}), ${m.rssMiB.afterStoringRequests} after ${m.requests} assistants (${m.bytesPerStoredAssistant} B each)`,
    );
  }
  if (r.scale) {
    out('scale (p50 / p99 ms at 10 connections; certification wall s)');
    for (const row of r.scale) {
      const cells = Object.entries(row.latency).map(([name, l]) => `${name} ${l.p50Ms}/${l.p99Ms}`);
      out(`  ${String(row.stored).padStart(7)} stored: ${cells.join(' · ')} · certify ${row.certifySeconds} s`);
    }
  }
}

/** One certification of the waits section: its wall time, load, verdict when not certified, and what it created under a budget. */
const waitRunText = (run: WaitRun): string =>
  `${run.wallSeconds} s at load ${run.load}${run.verdict === 'certified' ? '' : ` (${run.verdict})`}${run.created ? `, created ${run.created}` : ''}`;

/** The waits section: each kind of run's points and the line through them. */
function printRevisionWaits(waits: RevisionWaitFigures, out: (line?: string) => void): void {
  out('revision waits (a control-plane certification of the reference by URL; wall time over revision time)');
  const { accepting, budgeted, busy, 'busy-budgeted': busyBudgeted, 'busy-spread': busySpread } = waits;
  for (const [w, what, goal] of [
    [accepting, 'PATCHes accepted while a revision is in progress, unbudgeted', '; goal ≤ 1.5'],
    [budgeted, 'the same within the default budget of a target given by URL (12 deployments, 40 revisions)', '; goal ≤ 1.5'],
    [busy, 'PATCHes refused while a revision is in progress: each waits for it first', ''],
    [busyBudgeted, `the same within the default budget${busy && busyBudgeted ? ` (slope ${round(busyBudgeted.slope / busy.slope)} times the unbudgeted one's; goal ≤ 1.25)` : ''}`, ''],
    [busySpread, `the same within the budget --plan names to spread the pooled deployments' tests${busy && busySpread ? ` (slope ${round(busySpread.slope / busy.slope)} times the unbudgeted one's; goal ≤ 1.25)` : ''}`, ''],
  ] as const) {
    if (!w) continue;
    out(`  ${what}`);
    for (const p of w.points) {
      const runs = p.runs.map(waitRunText).join(', ');
      out(`    phases ${String(p.phaseMs).padStart(5)} ms: revision ${p.revisionSeconds} s → median wall ${p.wallSeconds} s (${runs})`);
    }
    out(`    slope ${w.slope} (wall s per revision s${goal}), intercept ${w.intercept} s${goal ? ' (goal ≤ 6 s)' : ''}: the line through the medians`);
  }
}
