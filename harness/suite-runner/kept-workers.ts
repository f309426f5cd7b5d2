// Suite worker processes that outlive a vitest run, for apc selftest's shared runs
// (batches.ts). vitest 4.1 ends a run's fork workers when the run has no file left for them,
// so each of the selftest's twenty-odd shared runs started its workers again: node, vitest's
// runtime, the harness, the schemas, fast-check and undici loaded anew, 0.4 to 1 s of CPU each.
// This is a vitest pool (its custom-pool API, `pool: { name, createPoolWorker }`) whose workers are
// child processes kept between runs: when a run stops a worker, the worker ends its vitest session
// (teardown, as vitest's own fork does) and the process waits, with its modules loaded, for the
// next run's start. A worker of a run that was cancelled (cut short: what its tests had under way
// may still be pending in it) or stopped without that teardown is killed, as vitest's are. The
// process side is kept-worker.mjs.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';
import { ROOT } from '../root.ts';

const ENTRY = join(ROOT, 'harness', 'suite-runner', 'kept-worker.mjs');
/** How long a killed worker may take to exit on SIGTERM before it gets SIGKILL (vitest's own wait). */
const KILL_AFTER_MS = 10_000;

/** The processes waiting for a run; close() ends them. */
export class KeptWorkers {
  private readonly waiting: ChildProcess[] = [];
  private closed = false;
  /** Worker processes started so far. */
  started = 0;

  readonly pool: PoolRunnerInitializer = { name: 'apc-kept-forks', createPoolWorker: (options) => new KeptWorker(this, options) };

  /** A waiting process, or a new one. */
  take(options: PoolOptions): ChildProcess {
    const waiting = this.waiting.pop();
    if (waiting) {
      waiting.off('exit', this.forget);
      waiting.ref();
      waiting.channel?.ref();
      return waiting;
    }
    this.started += 1;
    return fork(ENTRY, [], { env: options.env, execArgv: options.execArgv, stdio: 'pipe', serialization: 'advanced' });
  }

  /** Takes back a process whose session ended; it waits for the next run unless the pool is closed. */
  keep(child: ChildProcess): Promise<void> {
    if (this.closed || child.exitCode !== null || child.signalCode !== null) return kill(child);
    child.once('exit', this.forget);
    // A waiting process holds no one's exit: should close() be missed, it ends when the IPC channel does.
    child.unref();
    child.channel?.unref();
    this.waiting.push(child);
    return Promise.resolve();
  }

  /** Ends the waiting processes; a process still in a run is ended when that run stops it. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.waiting.splice(0).map(kill));
  }

  /** A waiting process that exited by itself is no longer offered. */
  private readonly forget = (_code: number | null, _signal: NodeJS.Signals | null): void => {
    for (let i = this.waiting.length - 1; i >= 0; i--) if (this.waiting[i]!.exitCode !== null || this.waiting[i]!.signalCode !== null) this.waiting.splice(i, 1);
  };
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill();
  });
}

/** One run's handle on a kept process (vitest makes one per worker and run). */
class KeptWorker implements PoolWorker {
  readonly name = 'apc-kept-forks';
  readonly cacheFs = true;
  private child: ChildProcess | undefined;
  /** What vitest listens to on the process: removed when the process is handed back. */
  private readonly listeners: [string, (arg: unknown) => void][] = [];
  /** The session answered vitest's stop: it tore down, and the process may serve another run. */
  private sessionEnded = false;
  /** The run was cancelled while this worker served it. */
  private cancelled = false;
  private offCancel: (() => void) | undefined;

  constructor(
    private readonly workers: KeptWorkers,
    private readonly options: PoolOptions,
  ) {}

  async start(): Promise<void> {
    this.child ??= this.workers.take(this.options);
    // As vitest's own forks do: each piped worker adds its listeners to the logger's streams.
    for (const [from, to] of this.pipes()) {
      to.setMaxListeners(to.getMaxListeners() + 1);
      from?.pipe(to, { end: false });
    }
    this.on('message', this.watchStop);
    this.offCancel = this.options.project.vitest.onCancel(() => {
      this.cancelled = true;
    });
  }

  async stop(): Promise<void> {
    const child = this.process;
    for (const [event, callback] of this.listeners.splice(0)) child.off(event, callback);
    for (const [from, to] of this.pipes()) {
      from?.unpipe(to);
      to.setMaxListeners(to.getMaxListeners() - 1);
    }
    this.child = undefined;
    this.offCancel?.();
    await (this.sessionEnded && !this.cancelled ? this.workers.keep(child) : kill(child));
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.listeners.push([event, callback]);
    this.process.on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    const at = this.listeners.findIndex(([e, c]) => e === event && c === callback);
    if (at !== -1) this.listeners.splice(at, 1);
    this.process.off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.process.send(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  /** The process's output, and the vitest logger's streams it goes to. */
  private pipes(): [NodeJS.ReadableStream | null | undefined, NodeJS.WritableStream & { setMaxListeners(n: number): unknown; getMaxListeners(): number }][] {
    const { outputStream, errorStream } = this.options.project.vitest.logger;
    return [
      [this.child?.stdout, outputStream],
      [this.child?.stderr, errorStream],
    ];
  }

  private get process(): ChildProcess {
    if (!this.child) throw new Error('apc: a kept suite worker was used before its start or after its stop.');
    return this.child;
  }

  private readonly watchStop = (message: unknown): void => {
    if ((message as { __vitest_worker_response__?: boolean; type?: string } | null)?.__vitest_worker_response__ && (message as { type: string }).type === 'stopped') this.sessionEnded = true;
  };
}
