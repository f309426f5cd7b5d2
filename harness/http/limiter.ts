// A counting semaphore: at most `limit` requests in flight against the target, and, when a rate
// is given (`--max-rps`, for a shared staging target), request starts spaced at least
// 1000 / rate ms apart. In adaptive mode (`--max-rps auto`) the rate starts unlimited, halves
// after each 429 (from the rate actually sent over the last second), and grows back by a quarter
// after each calm stretch, never above the rate that was last throttled: a throttled run settles
// just below the target's limit instead of hammering it.
const MIN_RPS = 0.5;
const CALM_MS = 5_000;

export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private nextStart = 0;
  /** Start times of the last second's requests (adaptive mode). */
  private readonly recent: number[] = [];
  /** The rate at which the target last throttled (adaptive mode). */
  private ceiling = Number.POSITIVE_INFINITY;
  private calmSince = 0;

  constructor(
    private limit: number,
    private perSecond?: number,
    private readonly adaptive = false,
    /** Read before each request: a larger share of the run's requests in flight, once other workers have ended (harness/conformance/slot-share.ts). */
    private readonly share?: () => number,
  ) {}

  /** The current rate limit, requests per second (undefined: unlimited). */
  get rate(): number | undefined {
    return this.perSecond;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.grow();
    // A request that waits is counted in flight by the one that lets it go, so none slips in between.
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      if (this.adaptive) this.adapt();
      if (this.perSecond) await this.spaceOut();
      return await work();
    } finally {
      this.active--;
      this.grow();
      this.wake();
    }
  }

  /** The limit only grows: a share, once granted, stays (harness/conformance/slot-share.ts says why that is safe). */
  private grow(): void {
    const share = this.share?.();
    if (share === undefined || share <= this.limit) return;
    this.limit = share;
    this.wake();
  }

  /** Lets waiting requests go while there is room (more than one at once when the limit grew). */
  private wake(): void {
    while (this.active < this.limit && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()!();
    }
  }

  /** The target answered 429: in adaptive mode, halve the rate. */
  throttled(): void {
    if (!this.adaptive) return;
    const now = performance.now();
    // The requests in flight together are throttled together: one halving for them.
    if (this.perSecond !== undefined && now - this.calmSince < 1000) return;
    this.forget(now);
    const sent = Math.max(MIN_RPS, this.recent.length);
    this.ceiling = Math.max(MIN_RPS, Math.min(this.ceiling, sent) * 0.9);
    this.perSecond = Math.max(MIN_RPS, Math.min(this.perSecond ?? sent, sent) / 2);
    this.calmSince = now;
  }

  private adapt(): void {
    const now = performance.now();
    this.recent.push(now);
    this.forget(now);
    if (this.perSecond !== undefined && now - this.calmSince > CALM_MS) {
      this.perSecond = Math.min(this.ceiling, this.perSecond * 1.25);
      this.calmSince = now;
    }
  }

  private forget(now: number): void {
    while (this.recent.length > 0 && now - this.recent[0]! > 1000) this.recent.shift();
  }

  private async spaceOut(): Promise<void> {
    const perSecond = this.perSecond!;
    const now = performance.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + 1000 / perSecond;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }
}
