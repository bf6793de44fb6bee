import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { NodeMessage } from "node-red";
import { startEmulator, type Emulator } from "../../src/emulator";
import { CONFIG_ID, TAB, configNode, credentialsFor, helper, loadFlow, settle, type FlowNode } from "../support/node-red";
import { OPERATION_TYPES } from "../support/node-types";
import { SecretScanner } from "../support/secrets";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MESSAGES = 5_000;
const CONCURRENCY = 50;
const WRITE_TYPES = ["morelogin-start-profile", "morelogin-close-profile"];
const READ_TYPES = OPERATION_TYPES.filter((type) => !WRITE_TYPES.includes(type));
const TYPES = [...READ_TYPES, ...WRITE_TYPES];

function soakFlow(emulator: Emulator): FlowNode[] {
  const nodes: FlowNode[] = [{ id: TAB, type: "tab" }, configNode(emulator)];
  for (const type of TYPES) {
    const props: Record<string, unknown> =
      type === "morelogin-request"
        ? { api: "local", method: "GET", path: "/api/envtag/all", pathType: "str" }
        : type.includes("profile") && !type.includes("list")
          ? { envId: "", envIdType: "str" }
          : { pageNo: "1", pageNoType: "num", pageSize: "5", pageSizeType: "num", output: "array" };
    nodes.push({ id: `node-${type}`, type, z: TAB, server: CONFIG_ID, wires: [["out"]], ...props });
  }
  nodes.push({ id: "out", z: TAB, type: "helper" }, { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] }, { id: "caught", z: TAB, type: "helper" });
  return nodes;
}

interface RoundFigures {
  messages: number;
  outputs: number;
  caught: number;
  readMessages: number;
  readSucceeded: number;
  /** Requests the emulator saw beyond one per message (retries, and re-sends after a refused token). */
  resent: number;
  duplicateOutcomes: number;
  missingOutcomes: number;
  seconds: number;
}

describe("reliability: soak under faults", function () {
  this.timeout(600_000);
  let emulator: Emulator;
  let scanner: SecretScanner;
  let repeatedWrites = 0;
  let writeRequests = 0;
  let unhandled = 0;
  const onUnhandled = (): void => {
    unhandled++;
  };
  // Warnings such as "Possible EventTarget memory leak detected" would land in the user's log.
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(`${warning.name}: ${warning.message}`);
  };

  before(async () => {
    process.on("unhandledRejection", onUnhandled);
    process.on("warning", onWarning);
    emulator = await startEmulator({ profiles: 200, apps: 30, requestLogSize: 30_000, localToken: "soak-local-token-5521" });
    scanner = new SecretScanner([emulator.credentials.apiKey, "soak-local-token-5521"]);
    await new Promise<void>((resolve) => helper.startServer(resolve));
    await loadFlow(soakFlow(emulator), credentialsFor(emulator));
  });

  after(async () => {
    process.off("unhandledRejection", onUnhandled);
    process.off("warning", onWarning);
    await helper.unload();
    await new Promise<void>((resolve) => helper.stopServer(resolve));
    await emulator.close();
  });

  /** Sends `MESSAGES` messages, keeping `CONCURRENCY` in flight, and counts each one's outcome. */
  async function round(label: string, beforeForget: () => void, halfway: () => void = () => undefined): Promise<RoundFigures> {
    const outcomes = new Map<number, number>();
    let outputs = 0;
    let caught = 0;
    let readSucceeded = 0;
    let sent = 0;
    let readMessages = 0;
    const started = Date.now();
    const profiles = emulator.data.profiles;

    await new Promise<void>((resolve) => {
      let finished = 0;
      const onOutcome = (msg: NodeMessage & { soak?: { round: string; seq: number; read: boolean } }, ok: boolean): void => {
        const soak = msg.soak;
        if (!soak || soak.round !== label) return;
        outcomes.set(soak.seq, (outcomes.get(soak.seq) ?? 0) + 1);
        scanner.scan(msg);
        if (ok) {
          outputs++;
          if (soak.read) readSucceeded++;
        } else {
          caught++;
        }
        finished++;
        if (sent < MESSAGES) sendNext();
        else if (finished >= MESSAGES) resolve();
      };
      const out = helper.getNode("out");
      const catcher = helper.getNode("caught");
      out.removeAllListeners("input");
      catcher.removeAllListeners("input");
      out.on("input", (msg: NodeMessage) => onOutcome(msg, true));
      catcher.on("input", (msg: NodeMessage) => onOutcome(msg, false));

      const sendNext = (): void => {
        const seq = sent++;
        if (seq === MESSAGES / 2) halfway();
        const type = TYPES[seq % TYPES.length] as string;
        const read = READ_TYPES.includes(type);
        if (read) readMessages++;
        const profile = profiles[seq % profiles.length];
        const payload = read ? "" : { envId: profile?.id, soakSeq: `${label}-${seq}` };
        helper.getNode(`node-${type}`).receive({ payload, soak: { round: label, seq, read } } as NodeMessage);
      };
      for (let i = 0; i < CONCURRENCY; i++) sendNext();
    });

    await settle(200);
    const callRequests = Object.entries(emulator.stats.requests)
      .filter(([route]) => route !== "open POST /oauth2/token")
      .reduce((sum, [, count]) => sum + count, 0);
    beforeForget();
    checkWritesAndForget();
    const duplicateOutcomes = [...outcomes.values()].filter((count) => count > 1).length;
    return {
      messages: MESSAGES,
      outputs,
      caught,
      readMessages,
      readSucceeded,
      resent: callRequests - MESSAGES,
      duplicateOutcomes,
      missingOutcomes: MESSAGES - outcomes.size,
      seconds: (Date.now() - started) / 1000,
    };
  }

  /** Counts start/close requests per message in the emulator's log, then clears it (and the helper's spies). */
  function checkWritesAndForget(): void {
    const perMessage = new Map<string, number>();
    for (const entry of emulator.requestLog) {
      if (entry.path !== "/api/env/start" && entry.path !== "/api/env/close") continue;
      writeRequests++;
      const key = `${entry.path} ${String((entry.body as { soakSeq?: string } | undefined)?.soakSeq)}`;
      perMessage.set(key, (perMessage.get(key) ?? 0) + 1);
    }
    repeatedWrites += [...perMessage.values()].filter((count) => count > 1).length;
    scanner.scanRuntime(helper.getNode("out"));
    emulator.resetStats();
  }

  function heapMb(): number {
    gc();
    gc();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  }

  it("gives every message exactly one outcome, keeps reads above 99 %, never repeats a start or close, and does not grow", async () => {
    emulator.setFaults({ latencyMs: [0, 20], http503: 0.05, reset: 0.02, malformed: 0.02, http502html: 0.01, tooMany: 0.03, retryAfterSeconds: 1, tokenFailure: 1 });
    // Token grants fail for the first second, then recover.
    const recover = setTimeout(() => emulator.setFaults({ latencyMs: [0, 20], http503: 0.05, reset: 0.02, malformed: 0.02, http502html: 0.01, tooMany: 0.03, retryAfterSeconds: 1 }), 1_000);
    const statsOf = () => ({
      faults: { ...emulator.stats.faultsInjected },
      rateLimited: emulator.stats.rateLimited,
      tokensGranted: emulator.stats.tokensGranted,
      tokenRequests: emulator.stats.tokenRequests,
      requests: Object.values(emulator.stats.requests).reduce((sum, count) => sum + count, 0),
    });
    const totals: Array<ReturnType<typeof statsOf>> = [];
    // All Open API tokens are revoked when half of round one has been sent.
    const first = await round(
      "first",
      () => totals.push(statsOf()),
      () => emulator.revokeAllTokens(),
    );
    clearTimeout(recover);
    await settle(200);
    const heapAfterFirst = heapMb();

    emulator.revokeAllTokens();
    const second = await round("second", () => totals.push(statsOf()));
    await settle(200);
    const heapAfterSecond = heapMb();
    emulator.setFaults({});

    const figures = {
      rounds: [first, second],
      emulator: totals,
      writeRequests,
      repeatedWrites,
      unhandledRejections: unhandled,
      processWarnings: warnings.length,
      heapMb: { afterFirst: Math.round(heapAfterFirst * 10) / 10, afterSecond: Math.round(heapAfterSecond * 10) / 10 },
      scanned: scanner.scanned,
      secretsFound: scanner.findings.length,
    };
    console.log(`RELIABILITY soak ${JSON.stringify(figures)}`);

    for (const figuresOfRound of [first, second]) {
      assert.equal(figuresOfRound.missingOutcomes, 0, "every message has an outcome");
      assert.equal(figuresOfRound.duplicateOutcomes, 0, "no message has two");
      assert.equal(figuresOfRound.outputs + figuresOfRound.caught, MESSAGES);
      assert.ok(figuresOfRound.readSucceeded / figuresOfRound.readMessages >= 0.99, `reads succeeded ${figuresOfRound.readSucceeded}/${figuresOfRound.readMessages}`);
    }
    assert.equal(repeatedWrites, 0, "no start or close was sent twice for one message");
    assert.equal(unhandled, 0);
    assert.deepEqual(warnings, [], "no process warnings");
    assert.ok((totals[0]?.tokensGranted ?? 0) >= 2, "a new token was fetched after the revocation in round one");
    assert.ok(first.resent > 0 && second.resent > 0, "faults were retried");
    assert.ok(heapAfterSecond - heapAfterFirst < 20, `heap grew ${heapAfterSecond - heapAfterFirst} MB`);
    assert.deepEqual(scanner.findings, []);
    const injected = totals[0]?.faults;
    assert.ok(
      injected && injected.http503 > 0 && injected.reset > 0 && injected.malformed > 0 && injected.http502html > 0 && injected.tooMany > 0 && injected.tokenFailure > 0,
      JSON.stringify(injected),
    );
  });
});
