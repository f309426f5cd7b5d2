// A run as a suite worker holds it: the context the certifying process provided, and what the
// run's tests share in this worker: its redactor (the profile's keys and every secret its requests
// send), its limiter (so the tests of all its files stay within the worker's share of the target),
// the requirements by id, the request counts behind its tests' deadlines on a slow target, and the
// counter behind its resource names. A worker that apc selftest
// keeps serves many runs: each has its own SuiteRun, so no run sees another's secrets or counts.
import { loadCatalogue, type Requirement } from '../catalogue.ts';
import { Limiter } from '../http/limiter.ts';
import { Redactor } from '../redact.ts';
import { loadRequestTable, type RequestTable } from './request-count.ts';
import type { RunContext } from './run-context.ts';
import { serialRequestMs } from './slow-deadline.ts';
import { slotShareReader } from './slot-share.ts';

export class SuiteRun {
  readonly redactor = new Redactor();
  readonly limiter: Limiter;
  private names = 0;
  private byId: Map<string, Requirement> | undefined;
  private requestTable: RequestTable | undefined;

  constructor(readonly context: RunContext) {
    const { profile } = context;
    this.redactor.add(profile.apiKey, profile.otherTenant?.apiKey, ...profile.redact);
    this.limiter = new Limiter(context.workerConcurrency, context.workerMaxRps, context.adaptiveRps, slotShareReader(context));
  }

  /** The requirements by id: as the certifying process read them (the context), else read here. */
  get requirementsById(): Map<string, Requirement> {
    const { requirements } = this.context;
    this.byId ??= requirements ? new Map(requirements.map((r) => [r.id, r])) : loadCatalogue().byId;
    return this.byId;
  }

  /** A test's requests one after another at the target's latency, ms (slow-deadline.ts): the counts read once for the run, when the latency was measured. */
  serialRequestMs(title: string): number {
    return serialRequestMs(this.context, title, () => (this.requestTable ??= loadRequestTable()));
  }

  /** A number no earlier name of this run in this worker has used. */
  nextName(): number {
    this.names += 1;
    return this.names;
  }
}
