// A counting semaphore: at most `limit` requests in flight against the target, and, when a rate
// is given (`--max-rps`, for a shared staging target), request starts spaced at least
// 1000 / rate ms apart.
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private nextStart = 0;

  constructor(
    private readonly limit: number,
    private readonly perSecond?: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      if (this.perSecond) await this.spaceOut();
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async spaceOut(): Promise<void> {
    const perSecond = this.perSecond!;
    const now = performance.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + 1000 / perSecond;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }
}
