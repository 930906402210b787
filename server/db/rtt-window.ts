// The recent round trips of the primary probe, as one value that a slow probe or two does not
// move: the median of a short window (pure: unit-tested). docs/atlas.md#the-link-to-the-primary

/** Probes kept: at the default 1 s probe interval, the last 15 seconds or so. */
export const RTT_WINDOW = 15;

export interface RttSummary {
  /** Median of the window (ms): the link's round trip as this process reports it. */
  medianMs: number;
  /** Least of the window (ms): the link with nothing queued on it. */
  minMs: number;
  /** Probes in the window. */
  probes: number;
}

/** A bounded window of round trips (ms), oldest first. */
export class RttWindow {
  private readonly ms: number[] = [];

  constructor(private readonly size = RTT_WINDOW) {}

  add(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.ms.push(ms);
    if (this.ms.length > this.size) this.ms.shift();
  }

  clear(): void {
    this.ms.length = 0;
  }

  /** undefined while the window is empty. */
  summary(): RttSummary | undefined {
    if (this.ms.length === 0) return undefined;
    const sorted = [...this.ms].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const medianMs = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    return { medianMs, minMs: sorted[0]!, probes: sorted.length };
  }
}
