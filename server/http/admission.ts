// Admission control for one gateway process: at most `limit` requests in flight; the next ones
// wait in a bounded queue for at most `waitMs`, then are refused (the server answers 503
// overloaded with Retry-After). Past capacity, clients get a quick, retryable answer instead of
// a request that times out after every queue on the way has filled.
export interface AdmissionOptions {
  limit: number;
  queueLimit: number;
  waitMs: number;
}

export class Admission {
  private inFlight = 0;
  private readonly queue: { admit: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly opts: AdmissionOptions) {}

  /** Resolves true when the request may run (call `release` when it ends), false when refused. */
  acquire(): Promise<boolean> {
    if (this.inFlight < this.opts.limit) {
      this.inFlight++;
      return Promise.resolve(true);
    }
    if (this.queue.length >= this.opts.queueLimit) return Promise.resolve(false);
    return new Promise((resolve) => {
      const entry = {
        admit: () => {
          clearTimeout(entry.timer);
          this.inFlight++;
          resolve(true);
        },
        timer: setTimeout(() => {
          const i = this.queue.indexOf(entry);
          if (i >= 0) this.queue.splice(i, 1);
          resolve(false);
        }, this.opts.waitMs),
      };
      this.queue.push(entry);
    });
  }

  release(): void {
    this.inFlight--;
    const next = this.queue.shift();
    if (next) next.admit();
  }

  get stats(): { inFlight: number; queued: number } {
    return { inFlight: this.inFlight, queued: this.queue.length };
  }
}
