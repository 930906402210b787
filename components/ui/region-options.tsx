// The <option>s of a region <select>: one per region code.
export function RegionOptions({ regions }: { regions: string[] }) {
  return regions.map((r) => (
    <option key={r} value={r}>
      {r}
    </option>
  ));
}
