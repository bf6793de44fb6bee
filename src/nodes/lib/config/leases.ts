import type { Node, NodeAPI } from "node-red";
import { closeEverything, messageOf, type CapacityKind, type LeaseEnd, type LeaseRecord, type MoreLoginClient } from "../../../client";
import type { Translate } from "../shell/i18n";
import { configLeaseStore, type ConfigLeaseStore } from "./lease-store";

/** A lease as people read it: "90 s", "30 min", "2 h" (in the runtime's language). */
export function leaseText(seconds: number | undefined, t: Translate): string {
  const value = seconds ?? 0;
  if (value > 0 && value % 3600 === 0) return t("morelogin.duration.hoursShort", { count: value / 3600 });
  if (value > 0 && value % 60 === 0) return t("morelogin.duration.minutesShort", { count: value / 60 });
  return t("morelogin.duration.secondsShort", { count: value });
}

/**
 * The config node's side of the leases: they live in its journal on disk (so they outlive a restart or
 * a crash, and what ran out meanwhile is closed soon after), and when one closes a profile the node that
 * started it warns, naming the profile and the lease, and shows how many it still holds.
 */
export function keepLeases(RED: NodeAPI, config: Node, client: MoreLoginClient, t: Translate): ConfigLeaseStore {
  const store = configLeaseStore(RED, config);
  let lastWarning = "";
  const warn = (error: unknown): void => {
    const text = t("morelogin.warnings.leaseStore", { reason: messageOf(error) });
    // A disk that fails every write says so once, not at every start.
    if (text !== lastWarning) config.warn(text);
    lastWarning = text;
  };
  client.leases.attach(store, warn).catch(warn);
  client.leases.onEnd((end) => tellOwner(RED, config, client, end, t));
  client.leases.onDeleted((ended) => tellDeleted(RED, client, ended, t));
  return store;
}

/** A delete through this config node ended leases: each node that held them shows how many it still holds. */
function tellDeleted(RED: NodeAPI, client: MoreLoginClient, ended: readonly LeaseRecord[], t: Translate): void {
  const byOwner = new Map<string, LeaseRecord[]>();
  for (const record of ended) if (record.owner) byOwner.set(record.owner, [...(byOwner.get(record.owner) ?? []), record]);
  for (const [ownerId, records] of byOwner) {
    const owner = RED.nodes.getNode(ownerId);
    if (!owner) continue;
    const count = client.leases.heldBy(ownerId);
    const [only] = records;
    const text = records.length === 1 && only ? t("morelogin.status.leaseDeleted", { id: only.id, count }) : t("morelogin.status.leasesDeleted", { deleted: records.length, count });
    owner.status({ fill: "green", shape: "dot", text });
  }
}

/** What a lease's end says, by what it ended: the warning, the warning when the close failed, the owner's status. */
const ENDED_TEXTS: Record<CapacityKind, { closed: string; failed: string; status: string }> = {
  profiles: { closed: "morelogin.warnings.leaseClosed.profiles", failed: "morelogin.warnings.leaseCloseFailed.profiles", status: "morelogin.status.leaseClosed" },
  phones: { closed: "morelogin.warnings.leaseClosed.phones", failed: "morelogin.warnings.leaseCloseFailed.phones", status: "morelogin.status.leasePoweredOff" },
  cloudBrowsers: { closed: "morelogin.warnings.leaseClosed.cloudBrowsers", failed: "morelogin.warnings.leaseCloseFailed.cloudBrowsers", status: "morelogin.status.leaseStopped" },
};

function tellOwner(RED: NodeAPI, config: Node, client: MoreLoginClient, end: LeaseEnd, t: Translate): void {
  const { record } = end;
  const values = { id: record.id, lease: leaseText(record.seconds, t) };
  if (end.error !== undefined) {
    config.warn(t(ENDED_TEXTS[record.kind].failed, { ...values, reason: messageOf(end.error) }));
    return;
  }
  if (!end.closed) return;
  const owner = record.owner ? RED.nodes.getNode(record.owner) : null;
  const text = t(ENDED_TEXTS[record.kind].closed, values);
  if (!owner) {
    config.warn(text);
    return;
  }
  owner.warn(text);
  owner.status({ fill: "yellow", shape: "dot", text: t(ENDED_TEXTS[record.kind].status, { id: record.id, count: client.leases.heldBy(owner.id) }) });
}

/**
 * The config node stops. With closeOnStop, everything it started that still runs is closed (powered
 * off) first; otherwise the leases are only written down, for the next start of this config node.
 */
/** How long closeOnStop may take: within Node-RED's 15 s for a closing node. */
const CLOSE_ON_STOP_MS = 10_000;

export async function stopLeases(config: Node, client: MoreLoginClient, store: ConfigLeaseStore, closeOnStop: boolean, removed: boolean, t: Translate): Promise<void> {
  if (closeOnStop) {
    // Node-RED waits 15 s for a node to close: what pacing holds back longer than this is left running, and said.
    const outcome = await closeEverything(client, AbortSignal.timeout(CLOSE_ON_STOP_MS));
    if (outcome.failed.length > 0) {
      config.warn(t("morelogin.warnings.closeOnStopFailed", { count: outcome.failed.length, reason: messageOf(outcome.failed[0]) }));
    }
  } else {
    await client.leases.flushed();
  }
  await (removed ? store.remove() : store.close()).catch(() => undefined);
}
