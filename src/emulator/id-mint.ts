import { idSequence, mulberry32 } from "./prng";

/**
 * IDs for what the emulator creates while it runs (profiles, groups, proxies, tags, schedules, runs).
 * Drawn from their own seeded stream, so the seeded data stays as it was and the same seed with the
 * same requests gives the same IDs. Widths as the real API's: 19 digits for profiles, groups and
 * proxies, 16 for automation schedules and runs (like the spec's examples).
 */
export class IdMint {
  readonly profile: () => string;
  readonly group: () => string;
  readonly proxy: () => string;
  readonly schedule: () => string;
  readonly run: () => string;
  readonly tag: () => string;

  constructor(seed: number) {
    const random = mulberry32(seed ^ 0x1d5eed);
    this.profile = idSequence(random, 1_995_000_000_000_000_000n, 1_000_000);
    this.group = idSequence(random, 1_750_000_000_000_000_000n, 1_000_000);
    this.proxy = idSequence(random, 1_650_000_000_000_000_000n, 1_000_000);
    this.schedule = idSequence(random, 1_678_900_000_000_000n, 1_000);
    this.run = idSequence(random, 1_679_500_000_000_000n, 1_000);
    // Its own stream, so the IDs above stay what they were before tags could be created.
    this.tag = idSequence(mulberry32(seed ^ 0x7a9), 1_700_000_000_000_000_000n, 1_000_000);
  }
}
