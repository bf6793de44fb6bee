/** Pieces the seeded data sets share. */
import { randomInt, type Random } from "./prng";
import type { Group, Tag } from "./types";

export const numbered = (prefix: string, index: number): string => `${prefix} ${String(index + 1).padStart(3, "0")}`;

/** Zero to two distinct tags: about 40% of items get some. */
export function someTags(random: Random, tags: readonly Tag[]): Tag[] {
  if (tags.length === 0 || random() >= 0.4) return [];
  const first = Math.floor(random() * tags.length);
  const chosen = [tags[first]];
  if (tags.length > 1 && random() < 0.3) chosen.push(tags[(first + 1) % tags.length]);
  return chosen.filter((tag): tag is Tag => tag !== undefined);
}

/** Round-robin over the groups plus one "ungrouped" slot. */
export function groupFor(index: number, groups: readonly Group[]): { groupId: string; groupName: string | null } {
  const group = groups[index % (groups.length + 1)];
  return group ? { groupId: group.id, groupName: group.groupName } : { groupId: "0", groupName: null };
}

/** "yyyy-MM-dd HH:mm:ss" at a seeded moment of `year`. */
export function dateText(random: Random, year = 2026): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const month = randomInt(random, 1, 12);
  const day = randomInt(random, 1, 28);
  const hour = randomInt(random, 0, 23);
  const minute = randomInt(random, 0, 59);
  return `${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(randomInt(random, 0, 59))}`;
}
