// Open requests per client address in one gateway process, from its headers to its connection
// closing, so one address can't take every slot or hold every connection (docs/security.md).
export class PeerLimit {
  private readonly open = new Map<string, number>();

  constructor(private readonly cap: number) {}

  /** Takes a place for `peer`: false past its cap (nothing taken then). */
  enter(peer: string): boolean {
    const n = this.open.get(peer) ?? 0;
    if (n >= this.cap) return false;
    this.open.set(peer, n + 1);
    return true;
  }

  leave(peer: string): void {
    const n = this.open.get(peer) ?? 0;
    // Deleted at zero: the map holds the clients with requests open, not every client ever seen.
    if (n <= 1) this.open.delete(peer);
    else this.open.set(peer, n - 1);
  }

  get peers(): number {
    return this.open.size;
  }
}
