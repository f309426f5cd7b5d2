// The first part of a test's Check (check.ts): the target as the test reaches it. Clients of
// the three interfaces bound to the profile and the run's limiter, whose exchanges are recorded
// for the failure report; run-scoped names; event streams read to their end.
import { InterfaceClient, Recorder, type RequestGuard, type RequestOptions, type StreamHandle } from '../http/client.ts';
import { budgetGuard } from '../budget/guard.ts';
import type { Exchange } from '../http/exchange.ts';
import { shareBreakersThrough } from '../http/circuit-breaker.ts';
import type { InterfaceName, TargetProfile } from '../profile/profile.ts';
import { readSse, type SseEvent, type SseResult } from '../sse/reader.ts';
import { ConformanceFailure } from './failure.ts';
import type { Redactor } from '../redact.ts';
import type { RunContext } from './run-context.ts';
import { SuiteRun } from './suite-run.ts';

export class CheckExchanges {
  readonly profile: TargetProfile;
  readonly recorder = new Recorder();
  private readonly clients = new Map<InterfaceName, InterfaceClient>();

  constructor(
    readonly run: RunContext,
    /** Seed base of this test: the run seed mixed with the test's title. */
    readonly testSeed: number,
    /** The requirements this test judges; a check that names none judges all of them. */
    readonly ids: readonly string[] = [],
    /** When the test's deadline passes (epoch ms): waits (a throttling target, a busy deployment) stop before it. */
    readonly deadlineAt?: number,
    /** What the run's tests share in this worker (run-of-file.ts); a Check made alone (a unit test) has its own. */
    readonly suiteRun: SuiteRun = new SuiteRun(run),
  ) {
    this.profile = run.profile;
    shareBreakersThrough(run.stateDir);
  }

  private client(name: InterfaceName): InterfaceClient {
    let client = this.clients.get(name);
    if (!client) {
      const base = this.profile.urls[name];
      if (!base) throw new ConformanceFailure({ message: `The profile has no ${name} URL.` });
      const budget = name === 'control-plane' ? budgetGuard(this.run, this.recorder, this.deadlineAt) : undefined;
      client = new InterfaceClient(name, base, this.profile, this.recorder, this.suiteRun.limiter, {
        throwWhenRefused: true,
        redactor: this.redactor,
        ...(this.deadlineAt !== undefined ? { giveUpAt: this.deadlineAt } : {}),
        // Under a budget, a create or PATCH first reserves what it may create (harness/budget/).
        ...(name === 'control-plane' && budget ? { guard: budget as RequestGuard } : {}),
      });
      this.clients.set(name, client);
    }
    return client;
  }

  /** The run's redactor: a secret a test learns of (an upload URL) is added to it, and every record of the test goes through it. */
  get redactor(): Redactor {
    return this.suiteRun.redactor;
  }

  /** Control plane client. */
  get cp(): InterfaceClient {
    return this.client('control-plane');
  }
  /** Agent server client. */
  get as(): InterfaceClient {
    return this.client('agent-server');
  }
  /** Experiment upload client. */
  get eu(): InterfaceClient {
    return this.client('experiment-upload');
  }

  /** A unique name carrying the run's prefix: only such resources are created and cleaned up. */
  name(hint = 'r'): string {
    const suffix = `${process.pid.toString(36)}${this.suiteRun.nextName().toString(36)}`;
    return `${this.run.runId}-${hint}-${suffix}`
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .slice(0, 60);
  }

  /** Opens an event stream and reads it to its end, or to the profile's stream deadline. */
  async stream(client: InterfaceClient, options: RequestOptions, onEvent?: (event: SseEvent) => boolean | void): Promise<SseResult | Exchange> {
    const opened: StreamHandle | Exchange = await client.openStream(options);
    if (!('body' in opened)) return opened;
    if (opened.exchange.response && opened.exchange.response.status >= 400) {
      // An error answer is an ordinary body: read it whole (bounded) for the report.
      return readSse(opened, { timeoutMs: this.profile.timeouts.requestMs }).then((r) => {
        const text = r.exchange.response!.text;
        try {
          r.exchange.response!.json = JSON.parse(text);
        } catch {
          /* not JSON: the text is kept */
        }
        return r.exchange;
      });
    }
    return readSse(opened, { timeoutMs: this.profile.timeouts.streamMs, ...(onEvent ? { onEvent } : {}) });
  }
}
