import { basename } from "node:path";
import type { ClientObserver } from "../../../client";
import { listenToSyncs } from "../../../journal";
import { moreloginMetrics } from "./prometheus";

/** What a config node's client tells the metrics: its requests, 429s and waits for pacing, under the config node's label. */
export function metricsObserver(config: string): ClientObserver {
  return {
    requested({ api, endpoint, outcome }) {
      const metrics = moreloginMetrics();
      metrics.requests.inc({ config, api, endpoint, outcome });
      if (outcome === "rate-limit") metrics.rateLimited.inc({ config, api });
    },
    paced(api, seconds) {
      moreloginMetrics().paceWait.observe({ config, api }, seconds);
    },
  };
}

/** Which journal a file is, as the label says it: a batch node's or a config node's leases (never its node's ID). */
function journalOf(file: string): string {
  const name = basename(file);
  if (name.startsWith("batch-")) return "batch";
  return name.startsWith("leases-") ? "leases" : "other";
}

/** Every journal's fdatasyncs go to the histogram from now on. */
export function timeJournalSyncs(): void {
  listenToSyncs((file, seconds) => moreloginMetrics().journalSync.observe({ journal: journalOf(file) }, seconds));
}
