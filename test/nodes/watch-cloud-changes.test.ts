import assert from "node:assert/strict";
import { changesBetween, currentState, toRemember } from "../../src/nodes/lib/watch/changes";
import type { Seen } from "../../src/nodes/lib/watch/observe";

/** A row of cloudbrowser/page as the watch sees it. */
const row = (id: string, status: string, startDate: string | null = null, archive: string | null = null): Seen => ({
  state: status,
  name: `profile ${id}`,
  owner: id,
  item: { id, envName: `profile ${id}`, cloudBrowserStatus: status, cloudBrowserArchiveStatus: archive, startDate },
});
const seen = (...rows: Seen[]): Map<string, Seen> => new Map(rows.map((item) => [item.owner, item]));
const remembered = (...rows: Seen[]): Record<string, Seen> => {
  const kept: Record<string, Seen> = {};
  for (const item of rows) {
    const value = toRemember("cloudBrowsers", item);
    if (value) kept[item.owner] = value;
  }
  return kept;
};
const summary = (before: Record<string, Seen>, now: Map<string, Seen>): string[] =>
  changesBetween("cloudBrowsers", before, now).map((change) => `${change.id} ${change.event} ${change.from}->${change.to}`);

describe("watch: the changes of cloud browsers between two polls (no Node-RED)", () => {
  it("remembers only the browsers that are out (not CLOSED), so the memory grows with them, not with the profiles", () => {
    assert.deepEqual(Object.keys(remembered(row("1", "CLOSED"), row("2", "STARTING"), row("3", "RUNNING", "t1"))), ["2", "3"]);
  });

  it("STARTING and the archive states send nothing; to RUNNING is started, to CLOSED is stopped", () => {
    assert.deepEqual(summary(remembered(row("1", "CLOSED")), seen(row("1", "STARTING"))), []);
    assert.deepEqual(summary(remembered(row("1", "STARTING")), seen(row("1", "RUNNING", "t1"))), ["1 started STARTING->RUNNING"]);
    assert.deepEqual(summary({}, seen(row("1", "RUNNING", "t1"))), ["1 started CLOSED->RUNNING"]);
    assert.deepEqual(summary(remembered(row("1", "RUNNING", "t1")), seen(row("1", "RUNNING", "t1", "PENDING"))), []);
    assert.deepEqual(summary(remembered(row("1", "RUNNING", "t1", "PENDING")), seen(row("1", "RUNNING", "t1", "ARCHIVING"))), []);
    const stopped = changesBetween("cloudBrowsers", remembered(row("1", "RUNNING", "t1", "ARCHIVING")), seen(row("1", "CLOSED", null, "COMPLETED")));
    assert.deepEqual(
      stopped.map((change) => [change.event, change.from, change.to, change.item.cloudBrowserArchiveStatus]),
      [["stopped", "RUNNING", "CLOSED", "COMPLETED"]],
    );
  });

  it("a start that never ran is stopped from STARTING; a browser stopped and started again between polls is stopped, then started", () => {
    assert.deepEqual(summary(remembered(row("1", "STARTING")), seen(row("1", "CLOSED"))), ["1 stopped STARTING->CLOSED"]);
    assert.deepEqual(summary(remembered(row("1", "RUNNING", "t1")), seen(row("1", "RUNNING", "t2"))), ["1 stopped RUNNING->CLOSED", "1 started CLOSED->RUNNING"]);
    assert.deepEqual(summary(remembered(row("1", "RUNNING", "t1")), seen(row("1", "STARTING"))), ["1 stopped RUNNING->CLOSED"]);
  });

  it("a profile gone from the page while its browser was out is stopped, with the last row seen", () => {
    const [gone] = changesBetween("cloudBrowsers", remembered(row("1", "RUNNING", "t1")), seen(row("2", "CLOSED")));
    assert.deepEqual([gone?.id, gone?.event, gone?.to, gone?.item.startDate], ["1", "stopped", "CLOSED", "t1"]);
  });

  it("on start (initial): each RUNNING browser as started from null; starting ones wait for their change", () => {
    const sent = currentState("cloudBrowsers", seen(row("1", "RUNNING", "t1"), row("2", "STARTING"), row("3", "CLOSED")));
    assert.deepEqual(
      sent.map((change) => [change.id, change.event, change.from, change.to]),
      [["1", "started", null, "RUNNING"]],
    );
  });
});
