import assert from "node:assert/strict";
import { loadExamples } from "../../tools/sandbox";

/** MoreLogin's documented limit, and the config node's default pacing: requests a minute to each API. */
const BUDGET_PER_MINUTE = 120;

/**
 * Deployed together (as `npm start` does), the examples' watches at idle leave most of each config
 * node's 120 requests a minute to the flows people run. Watches on one config node that watch the same
 * thing on the same API share each poll, so they cost what the most frequent of them costs.
 */
describe("examples: the watches at idle leave room in the 120-a-minute budget", () => {
  it("at most a quarter of each config node's budget per API, counting shared polls once", () => {
    const { flows } = loadExamples({});
    const fastest = new Map<string, number>();
    for (const watch of flows.filter((node) => node.type === "morelogin-watch" && node.d !== true)) {
      const kind = String(watch.watch || "profiles");
      const api = kind === "profiles" ? "local" : String(watch.api || "local");
      // A profiles watch reads the desktop client's profiles, the cloud browsers' page or both (`where`): each its own poll.
      const where = String(watch.where || "local");
      const sources = kind !== "profiles" ? [kind] : where === "both" ? ["profiles", "cloudBrowsers"] : where === "cloud" ? ["cloudBrowsers"] : ["profiles"];
      const seconds = Number(watch.interval || 10);
      for (const source of sources) {
        const key = `${String(watch.server)} ${api} ${source}`;
        fastest.set(key, Math.min(fastest.get(key) ?? Number.POSITIVE_INFINITY, seconds));
      }
    }
    assert.ok(fastest.size > 0, "the examples have watches");
    const perApi = new Map<string, number>();
    // One request per poll: getAllDebugInfo, or one page of 100 phones, runs or cloud browsers (the emulator's data fits one page).
    for (const [key, seconds] of fastest) {
      const [server, api] = key.split(" ");
      perApi.set(`${server} ${api}`, (perApi.get(`${server} ${api}`) ?? 0) + 60 / seconds);
    }
    for (const [configAndApi, perMinute] of perApi) {
      assert.ok(perMinute <= BUDGET_PER_MINUTE / 4, `${configAndApi}: the watches poll ${perMinute} times a minute at idle`);
    }
  });
});
