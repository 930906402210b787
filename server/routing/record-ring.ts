// A first-in first-out queue of fixed capacity over one preallocated array (a ring).
/**
 * Adding to a full ring drops its oldest entry in constant time. The decision log buffers here:
 * during a long primary outage every request adds one to a full buffer, and shifting a plain
 * array would move every entry along per request.
 */
export class RecordRing<T> {
  private readonly slots: (T | undefined)[];
  private head = 0; // index of the oldest entry
  private size = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.slots = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** Adds `item` as the newest; returns how many of the oldest went to make room (0 or 1). */
  push(item: T): number {
    if (this.size === this.capacity) {
      this.slots[this.head] = item;
      this.head = (this.head + 1) % this.capacity;
      return 1;
    }
    this.slots[(this.head + this.size) % this.capacity] = item;
    this.size++;
    return 0;
  }

  /** Removes and returns up to `n` of the oldest, oldest first. */
  take(n: number): T[] {
    const count = Math.min(Math.max(0, n), this.size);
    const out = new Array<T>(count);
    for (let i = 0; i < count; i++) {
      out[i] = this.slots[this.head] as T;
      this.slots[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
    }
    this.size -= count;
    return out;
  }

  /**
   * Puts `items` (taken earlier, oldest first) back in front of what is here, as the oldest. What
   * does not fit is dropped from the oldest end; returns how many were dropped.
   */
  putBack(items: readonly T[]): number {
    const room = this.capacity - this.size;
    const dropped = Math.max(0, items.length - room);
    for (let i = items.length - 1; i >= dropped; i--) {
      this.head = (this.head - 1 + this.capacity) % this.capacity;
      this.slots[this.head] = items[i];
      this.size++;
    }
    return dropped;
  }

  /** The newest entry that matches, if any. */
  findNewest(match: (item: T) => boolean): T | undefined {
    for (let i = this.size - 1; i >= 0; i--) {
      const item = this.slots[(this.head + i) % this.capacity] as T;
      if (match(item)) return item;
    }
    return undefined;
  }

  /** Every entry that matches, oldest first. */
  filter(match: (item: T) => boolean): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.size; i++) {
      const item = this.slots[(this.head + i) % this.capacity] as T;
      if (match(item)) out.push(item);
    }
    return out;
  }

  /** Empties the ring; returns how many entries it held. */
  clear(): number {
    const n = this.size;
    this.slots.fill(undefined);
    this.head = 0;
    this.size = 0;
    return n;
  }
}
