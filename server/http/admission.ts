// Admission control for one gateway process: `limit` requests in flight, a bounded queue that waits
// at most `waitMs`, then 503 overloaded, a quick retryable answer (docs/security.md).
export interface AdmissionOptions {
  limit: number;
  queueLimit: number;
  waitMs: number;
}

/** `left`: the ticket was given back (its client went away) before a slot was decided. */
export type Outcome = 'admitted' | 'refused' | 'left';

/** One request's place: `outcome` settles once; `leave` gives back whatever it holds. */
export interface Ticket {
  outcome: Promise<Outcome>;
  /** Idempotent. Frees the slot once admitted, or drops the place in the queue while waiting. */
  leave(): void;
}

interface Waiting {
  admit: () => void;
  timer: NodeJS.Timeout;
}

export class Admission {
  private inFlight = 0;
  private readonly queue: Waiting[] = [];

  constructor(private readonly opts: AdmissionOptions) {}

  /**
   * A place for one request. The caller gives it back (`leave`) when the request's connection
   * closes, whatever happened until then: a client that gave up while queued must neither keep
   * its place in the queue nor be handed a slot that nobody will ever release.
   */
  enter(): Ticket {
    let state: 'queued' | 'running' | 'done' = 'queued';
    let settle!: (o: Outcome) => void;
    const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
    const finish = (o: Outcome) => {
      state = o === 'admitted' ? 'running' : 'done';
      settle(o);
    };
    let waiting: Waiting | undefined;
    const dequeue = () => {
      const i = waiting ? this.queue.indexOf(waiting) : -1;
      if (i >= 0) this.queue.splice(i, 1);
      if (waiting) clearTimeout(waiting.timer);
    };
    if (this.inFlight < this.opts.limit) {
      this.inFlight++;
      finish('admitted');
    } else if (this.queue.length >= this.opts.queueLimit) {
      finish('refused');
    } else {
      waiting = {
        admit: () => {
          clearTimeout(waiting!.timer);
          this.inFlight++;
          finish('admitted');
        },
        timer: setTimeout(() => {
          dequeue();
          finish('refused');
        }, this.opts.waitMs),
      };
      this.queue.push(waiting);
    }
    return {
      outcome,
      leave: () => {
        if (state === 'running') {
          state = 'done';
          this.release();
        } else if (state === 'queued') {
          dequeue();
          finish('left');
        }
      },
    };
  }

  private release(): void {
    this.inFlight--;
    const next = this.queue.shift();
    if (next) next.admit();
  }

  get stats(): { inFlight: number; queued: number } {
    return { inFlight: this.inFlight, queued: this.queue.length };
  }
}
