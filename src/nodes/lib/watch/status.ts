import type { Translate } from "../shell/i18n";
import type { Change } from "./changes";
import { CLOUD_RUNNING, type WatchSource } from "./kinds";
import type { Observation, Seen } from "./observe";
import type { WatchSettings } from "./settings";

/** What one poll saw of one source, and the changes since the poll before. */
export interface Polled {
  source: WatchSource;
  observation: Observation;
  changes: Change[];
}

/** The catalog keys of the watch's status texts (kept with the node type, which owns its catalog). */
export interface WatchStatusKeys {
  starting: string;
  profiles: string;
  /** Cloud browsers running, for a profiles watch with `where` cloud. */
  cloud: string;
  /** Profiles running in the desktop client and in the cloud, for `where` both. */
  both: string;
  phones: string;
  runs: string;
}

const clock = (date: Date): string => date.toTimeString().slice(0, 8);

/** The green status after a poll: how many run (or how many runs are active), and when. A profiles watch counts where it looks. */
export function pollStatus(settings: WatchSettings, polled: readonly Polled[], t: Translate, keys: WatchStatusKeys): string {
  const time = clock(new Date());
  const counted = (source: WatchSource, test: (item: Seen) => boolean): number => {
    const found = polled.find((entry) => entry.source === source);
    if (!found) return 0;
    const seen = [...found.observation.seen.values()];
    return seen.filter((item) => (settings.ids.size === 0 || settings.ids.has(item.owner)) && test(item)).length;
  };
  const always = (): boolean => true;
  switch (settings.kind) {
    case "profiles": {
      const local = counted("profiles", always);
      const cloud = counted("cloudBrowsers", (item) => item.state === CLOUD_RUNNING);
      if (!settings.sources.includes("cloudBrowsers")) return t(keys.profiles, { count: local, time });
      if (!settings.sources.includes("profiles")) return t(keys.cloud, { count: cloud, time });
      return t(keys.both, { count: local + cloud, cloud, time });
    }
    case "phones":
      return t(keys.phones, { running: counted("phones", (item) => item.state === 4), count: counted("phones", always), time });
    case "runs":
      return t(keys.runs, { count: counted("runs", (item) => item.state === 0 || item.state === 1 || item.state === 2), time });
  }
}
