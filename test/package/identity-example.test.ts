import assert from "node:assert/strict";
import { EXAMPLE_CONFIG_ID, deployAndStart, loadExamples, type FlowNode } from "../../tools/sandbox";
import { DEMO_EMULATOR_OPTIONS } from "../../tools/start-args";
import { useInstalledExample } from "../support/installed-example";
import { CHROMIUM } from "../support/chromium";
import { QUICK_TIMINGS } from "../support/emulator";
import { type DebugMessage, sidebarUntil } from "../support/debug-sidebar";
import { call, dataOf } from "../support/http";
import { runtimeLabel } from "../support/runtime";

const EXAMPLE = "22 Identity before work";
const TAG = "identity mismatch";

interface ProfileRow {
  id: string;
  envName: string;
  proxyId: string;
  tagInfos: Array<{ id: string; tagName: string }>;
}

interface ProfileNote {
  profile: string;
  envId: string;
  worked: boolean;
  error?: string;
}

/**
 * Example 22 as a user runs it, on npm start's data: installed from the tarball, deployed alone on its tab,
 * the demo's inject pressed (a Berlin clock on the profiles in no group that have a proxy), then the check's
 * inject, twice. The profiles in no group are four (006 and 018 behind a London exit, 012 and 024 without a
 * proxy): four Chromium starts a run, only while the example runs.
 */
describe(`example 22 Identity before work: installed from its tarball into ${runtimeLabel}`, function () {
  this.timeout(240_000);
  const installed = useInstalledExample("morelogin-identity-example-", { ...DEMO_EMULATOR_OPTIONS, ...QUICK_TIMINGS });

  /** The example alone on its tab, as npm start deploys it: its config node pointed at the emulator, its echo URL at the emulator's. */
  async function deployExample(): Promise<FlowNode[]> {
    const { emulator, nodeRed } = installed();
    const examples = loadExamples({ localUrl: emulator.localUrl, openUrl: emulator.openUrl }, emulator.echoUrl);
    const nodes = examples.byExample.get(EXAMPLE);
    const tab = examples.flows.find((node) => node.type === "tab" && node.label === EXAMPLE);
    const config = examples.flows.find((node) => node.id === EXAMPLE_CONFIG_ID);
    assert.ok(nodes && tab && config, `the example "${EXAMPLE}" exists`);
    await deployAndStart(nodeRed, [tab, ...nodes, { ...config, credentials: emulator.credentials }]);
    return nodes;
  }

  const ungrouped = async (): Promise<ProfileRow[]> =>
    dataOf<{ dataList: ProfileRow[] }>(await call(installed().emulator.localUrl, "/api/env/page", { body: { pageNo: 1, pageSize: 100, groupId: "0" } })).dataList;

  /** Presses the inject named `name` and gives the example's Debug messages until `until` holds. */
  async function press(nodes: FlowNode[], name: string, until: (shown: DebugMessage[]) => boolean): Promise<DebugMessage[]> {
    const inject = nodes.find((node) => node.type === "inject" && node.name === name);
    assert.ok(inject, `the example has an inject "${name}"`);
    const from = installed().sidebar.mark();
    assert.equal((await fetch(`${installed().nodeRed.url}/inject/${inject.id}`, { method: "POST" })).status, 200);
    return sidebarUntil(
      () => installed().sidebar.since(from, nodes),
      (shown) => until(shown) || shown.some((message) => message.name === "error"),
      200_000,
      (shown) => `"${name}" did not finish in time; the sidebar got ${JSON.stringify(shown.slice(-5)).slice(0, 2000)}`,
    );
  }

  const valuesOf = (messages: DebugMessage[], name: string): unknown[] => messages.filter((message) => message.name === name).map((message) => message.value);

  it("tags and fails exactly the profiles whose clock contradicts their exit, keeps their other tags, lists the failures by reason, closes every profile it started", async () => {
    const { emulator, nodeRed } = installed();
    const logFrom = nodeRed.output().length;
    const nodes = await deployExample();
    assert.doesNotMatch(nodeRed.output().slice(logFrom), /\[error\]|\[warn\]/, "deployed without an error or a warning");
    // A profile that will mismatch has tags of its own already, as a user's profiles do: they must stay.
    const ownTags = emulator.data.tags.filter((tag) => tag.tagName === "VIP" || tag.tagName === "Ads").map((tag) => tag.id);
    const profile006 = emulator.data.profiles.find((profile) => profile.envName === "Profile 006");
    assert.ok(profile006 && ownTags.length === 2);
    dataOf(await call(emulator.localUrl, "/api/env/update", { body: { envId: profile006.id, tagIds: ownTags } }));
    const before = await ungrouped();
    assert.deepEqual(
      before.map((profile) => profile.envName),
      ["Profile 006", "Profile 012", "Profile 018", "Profile 024"],
      "npm start's profiles in no group",
    );
    const behindProxy = before.filter((profile) => profile.proxyId !== "0").map((profile) => profile.envName);
    assert.deepEqual(behindProxy, ["Profile 006", "Profile 018"]);

    const setup = await press(nodes, "demo: a Berlin clock behind the proxies", (shown) => valuesOf(shown, "clock set").length === behindProxy.length);
    assert.deepEqual(valuesOf(setup, "error"), []);
    assert.deepEqual(valuesOf(setup, "clock set").sort(), behindProxy);

    emulator.setBrowser(CHROMIUM);
    const runs: DebugMessage[][] = [];
    try {
      // Twice: the second run finds the tag the first one made, and tags no profile twice.
      for (let run = 0; run < 2; run++) runs.push(await press(nodes, "check every profile", (shown) => valuesOf(shown, "summary").length > 0));
    } finally {
      emulator.setBrowser(undefined);
    }

    const reason = "timezone: expected Europe/London, seen Europe/Berlin";
    const idOf = (name: string): string => before.find((profile) => profile.envName === name)?.id ?? "";
    for (const messages of runs) {
      assert.deepEqual(valuesOf(messages, "error"), [], "no profile failed on the way");
      // The profiles under a reason come in the order they ended: four run at once.
      const summaries = valuesOf(messages, "summary").map((text) => String(text).replace(/\(([^)]*)\)/g, (_all, ids: string) => `(${ids.split(", ").sort().join(", ")})`));
      assert.deepEqual(summaries, [`2 worked, 2 failed · ${reason}: 2 (${[idOf("Profile 006"), idOf("Profile 018")].sort().join(", ")})`]);
      const notes = (valuesOf(messages, "each profile") as ProfileNote[]).sort((a, b) => a.profile.localeCompare(b.profile));
      assert.deepEqual(
        notes.map((note) => [note.profile, note.worked, note.error]),
        [
          ["Profile 006", false, reason],
          ["Profile 012", true, undefined],
          ["Profile 018", false, reason],
          ["Profile 024", true, undefined],
        ],
      );
    }

    const tags = dataOf<Array<{ id: string; tagName: string }>>(await call(emulator.localUrl, "/api/envtag/all", { method: "GET" })).filter((tag) => tag.tagName === TAG);
    assert.equal(tags.length, 1, "the tag was made once");
    const after = await ungrouped();
    for (const profile of before) {
      const now = after.find((row) => row.id === profile.id);
      assert.ok(now);
      const mismatched = behindProxy.includes(profile.envName);
      assert.deepEqual(
        now.tagInfos.map((tag) => tag.tagName),
        [...profile.tagInfos.map((tag) => tag.tagName), ...(mismatched ? [TAG] : [])],
        `${profile.envName}: its tags kept${mismatched ? ", the mismatch tag added once" : ""}`,
      );
    }

    const starts = emulator.requestLog.filter((request) => request.path === "/api/env/start").length;
    assert.equal(starts, 2 * before.length, "each profile started once a run");
    assert.deepEqual(emulator.running(), [], "every profile started was closed");
  });
});
