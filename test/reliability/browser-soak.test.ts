import assert from "node:assert/strict";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { NodeMessage } from "node-red";
import { startEmulator, type Emulator } from "../../src/emulator";
import { browserSkipReason, CHROMIUM } from "../support/chromium";
import { descendsFromThisProcess, processesNaming } from "../support/processes";
import { CONFIG_ID, TAB, configNode, credentialsFor, helper, loadFlow, settle, useNodeRed, type FlowNode } from "../support/node-red";
import { waitUntil } from "../support/wait-until";
import { heavySlot } from "../../tools/test-limits";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * Two profiles at once: their messages interleave on the browser node as any number's do. Five at once
 * kept five Chromiums starting side by side for minutes, a load average of 25-30 on 2 cores.
 */
const PROFILES = 2;
const MESSAGES = 300;
/** Messages sent before RSS is first measured: Playwright is loaded and the caches are warm. */
const WARM_UP = 30;
/** The emulator names each Chromium's user data folder with this prefix. */
const CHROMIUM_FOLDER = "morelogin-emulator-chromium-";

/** This process's emulator Chromiums and their helpers (their command line names the emulator's user data folder). */
function chromiumProcesses(): number[] {
  return processesNaming(CHROMIUM_FOLDER).filter(descendsFromThisProcess);
}

/** The inodes of the sockets this process holds open (`socket:[inode]` links in /proc/self/fd). */
function ownSocketInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (socket?.[1]) inodes.add(socket[1]);
    } catch {
      // closed between the listing and the read
    }
  }
  return inodes;
}

/**
 * Established TCP connections this process holds to any of these ports. /proc/net/tcp lists the whole
 * machine's: only this process's sockets count, as other suites (and other Chromiums) run beside this one
 * and may reuse a port number a closed browser had.
 */
function connectionsTo(ports: ReadonlySet<number>): number {
  const own = ownSocketInodes();
  let count = 0;
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const columns = line.trim().split(/\s+/);
    if (columns[3] !== "01" || !own.has(String(columns[9]))) continue;
    const remote = Number.parseInt(String(columns[2]?.split(":")[1]), 16);
    if (ports.has(remote)) count++;
  }
  return count;
}

/** How much the process's memory may stay above where it was after the warm-up, and how long it has to get there. */
const RSS_GROWTH_MB = 20;
const RSS_COMES_BACK_MS = 10_000;
/** How long Chromium's processes and the connections to them may take to end after the unload, at most. */
const BROWSERS_END_MS = 10_000;

function rssMb(): number {
  gc();
  gc();
  return process.memoryUsage.rss() / 1024 / 1024;
}

/**
 * start → browser open → browser screenshot → close, with a real Chromium behind each start: two
 * profiles at once, one message after another on each, 300 in all.
 */
describe(`reliability: browser steps on real Chromium, 300 messages over ${PROFILES} profiles at once`, function () {
  // Each message starts a Chromium: on a busy 2-core machine that is seconds each, two at a time.
  this.timeout(1_200_000);
  let emulator: Emulator | undefined;

  let release: (() => void) | undefined;
  useNodeRed();
  // Not useEmulator's: no emulator (and no Chromium) when the browser tests are skipped on purpose.
  before(async function () {
    const skipped = browserSkipReason();
    if (skipped) {
      console.log(`    browser soak skipped on purpose (${skipped})`);
      this.skip();
    }
    // Its Chromiums count against the heavy slots that every test process shares (tools/test-limits.ts).
    release = await heavySlot("the browser soak");
    emulator = await startEmulator({ profiles: PROFILES, browser: CHROMIUM });
  });
  after(async () => {
    await emulator?.close();
    release?.();
  });

  it("gives every message one outcome, leaves no Chromium or connection behind, and RSS comes back within 20 MB", async () => {
    assert.ok(emulator, "the emulator runs");
    const started = emulator;
    const flow: FlowNode[] = [
      { id: TAB, type: "tab", label: "browser soak" },
      configNode(started, { localRpm: "0", openRpm: "0" }),
      { id: "start", type: "morelogin-start-profile", z: TAB, server: CONFIG_ID, wires: [["page"]] },
      { id: "page", type: "morelogin-browser", z: TAB, action: "open", url: started.demoUrl, urlType: "str", wires: [["shot"]] },
      { id: "shot", type: "morelogin-browser", z: TAB, action: "screenshot", wires: [["close"]] },
      { id: "close", type: "morelogin-close-profile", z: TAB, server: CONFIG_ID, wires: [["out"]] },
      { id: "out", type: "helper", z: TAB },
      { id: "catch1", type: "catch", z: TAB, scope: null, uncaught: false, wires: [["caught"]] },
      { id: "caught", type: "helper", z: TAB },
    ];
    await loadFlow(flow, credentialsFor(started));
    const outcomes = new Map<number, string[]>();
    const screenshotBytes: number[] = [];
    const debugPorts = new Set<number>();
    const waiting = new Map<number, () => void>();
    const ended = (seq: number, outcome: string): void => {
      outcomes.set(seq, [...(outcomes.get(seq) ?? []), outcome]);
      waiting.get(seq)?.();
    };
    helper.getNode("shot").on("input", (msg: NodeMessage & { morelogin?: { profile?: { debugPort?: string } } }) => {
      debugPorts.add(Number(msg.morelogin?.profile?.debugPort));
    });
    helper.getNode("close").on("input", (msg: NodeMessage) => {
      if (Buffer.isBuffer(msg.payload)) screenshotBytes.push(msg.payload.length);
    });
    helper.getNode("out").on("input", (msg: NodeMessage & { seq?: number }) => ended(Number(msg.seq), "out"));
    helper.getNode("caught").on("input", (msg: NodeMessage & { seq?: number; error?: { message?: string } }) => ended(Number(msg.seq), `caught: ${msg.error?.message}`));

    let sent = 0;
    let rssAfterWarmUp = 0;
    const send = (envId: string): Promise<void> => {
      const seq = sent++;
      return new Promise<void>((resolve) => {
        waiting.set(seq, resolve);
        helper.getNode("start").receive({ payload: envId, seq } as NodeMessage);
      });
    };
    // One worker per profile: each sends its next message when its last one has ended.
    const worker = async (envId: string): Promise<void> => {
      while (sent < MESSAGES) {
        await send(envId);
        if (sent >= WARM_UP && rssAfterWarmUp === 0) rssAfterWarmUp = rssMb();
      }
    };
    await Promise.all(started.data.profiles.map((profile) => worker(profile.id)));
    // A pause on purpose: a second outcome of a message would come at no known event after its first.
    await settle(500);

    await helper.unload();
    // Chromium's processes and connections end a moment after the unload: wait for that (the figures and
    // the assertions below say what is left when it does not happen).
    await waitUntil(() => chromiumProcesses().length === 0 && connectionsTo(debugPorts) === 0, "every Chromium and every connection to one has ended", BROWSERS_END_MS, { everyMs: 250 }).catch(
      () => undefined,
    );
    // Memory comes back as the closed sockets, pages and buffers are let go, later on a busy machine: read
    // it until it is back within the bound or 10 s have passed; a leak never comes back.
    const rssAfter = await waitUntil(rssMb, (rss) => rss - rssAfterWarmUp < RSS_GROWTH_MB, "RSS back within its bound", RSS_COMES_BACK_MS, { everyMs: 250 }).catch(() => rssMb());
    const figures = {
      messages: sent,
      out: [...outcomes.values()].filter((list) => list[0] === "out").length,
      caught: [...outcomes.values()].filter((list) => list[0]?.startsWith("caught")).length,
      screenshots: screenshotBytes.length,
      smallestScreenshotKb: Math.round(Math.min(...screenshotBytes) / 1024),
      browsers: debugPorts.size,
      rssMb: { afterWarmUp: Math.round(rssAfterWarmUp), after: Math.round(rssAfter) },
      chromiumLeft: chromiumProcesses().length,
      connectionsLeft: connectionsTo(debugPorts),
    };
    console.log(`RELIABILITY browser-soak ${JSON.stringify(figures)}`);

    const errors = [...outcomes.values()].flat().filter((outcome) => outcome !== "out");
    assert.deepEqual(errors.slice(0, 5), [], `no message failed (${errors.length} did)`);
    assert.equal(outcomes.size, MESSAGES, "every message has an outcome");
    assert.ok(
      [...outcomes.values()].every((list) => list.length === 1),
      "no message has two",
    );
    assert.equal(screenshotBytes.length, MESSAGES, "every message took a screenshot");
    assert.ok(figures.smallestScreenshotKb > 1, "of a page, not of nothing");
    assert.ok(debugPorts.size >= PROFILES, "each start had a browser of its own");
    assert.deepEqual(started.running(), [], "every profile was closed");
    assert.deepEqual(chromiumProcesses(), [], "no Chromium is left running");
    assert.equal(figures.connectionsLeft, 0, "no connection to any of the browsers is left open");
    assert.ok(rssAfter - rssAfterWarmUp < RSS_GROWTH_MB, `RSS grew ${Math.round(rssAfter - rssAfterWarmUp)} MB`);
  });
});
