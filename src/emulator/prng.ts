/** mulberry32: a tiny, fast, seedable PRNG. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

/** An integer in [min, max]. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** Ascending, unique decimal-string IDs of a fixed width, starting near `base`. */
export function idSequence(random: Random, base: bigint, maxStep: number): () => string {
  let current = base + BigInt(Math.floor(random() * 1_000_000));
  return () => {
    current += BigInt(1 + Math.floor(random() * maxStep));
    return current.toString();
  };
}
