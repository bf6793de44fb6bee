import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { NodeMessage } from "node-red";
import type { Emulator, FaultRates } from "../../src/emulator";
import { useEmulator } from "../support/emulator";
import { CONFIG_ID, TAB, configNode, credentialsFor, helper, loadFlow, settle, useNodeRed, type FlowNode } from "../support/node-red";
import { OPERATION_TYPES } from "../support/node-types";
import { SecretScanner } from "../support/secrets";
import { startWiretap, type TappedRequest, type Wiretap } from "../support/wiretap";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MESSAGES = 5_000;
const CONCURRENCY = 50;
const WRITE_TYPES = ["morelogin-start-profile", "morelogin-close-profile"];
/** They create and delete the team's proxies, groups and tags: each message would need its own names. */
const MANAGE_TYPES = ["morelogin-proxy", "morelogin-group", "morelogin-tag"];
const READ_TYPES = OPERATION_TYPES.filter((type) => !WRITE_TYPES.includes(type) && !MANAGE_TYPES.includes(type));
const TYPES = [...READ_TYPES, ...WRITE_TYPES];

/** The minute of refusals: how long messages are sent, how many are kept in flight, and which. */
const MINUTE_MS = 60_000;
const MINUTE_CONCURRENCY = 50;
const MINUTE_TYPES = ["morelogin-list-profiles", "morelogin-start-profile", "morelogin-close-profile"];
/** After the minute, how long the last messages may take: a refusal is waited out for up to 60 s. */
const MINUTE_DRAIN_LIMIT_MS = 150_000;
/**
 * Half of all calls refused with MoreLogin's published rate-limit answer: HTTP 429, `{code: 429}`, no
 * Retry-After. The client then waits until the oldest request it made in the last minute stops
 * counting. After the fault rounds, whose traffic filled every second of that minute, that is about
 * a second; run on its own (`--grep minute`), the first refusal holds the API for a minute.
 */
const MINUTE_FAULTS: FaultRates = { latencyMs: [0, 20], rateLimited: 0.5 };

/**
 * The Local API goes through a wiretap, which writes down what each start and close request was
 * answered. Pacing is off: the fault rounds send 5,000 messages in seconds (at the default 120 a
 * minute, one round would take 40 minutes); the bench measures pacing. Starts keep the default
 * concurrency limit (5).
 */
function soakFlow(emulator: Emulator, tap: Wiretap): FlowNode[] {
  const nodes: FlowNode[] = [{ id: TAB, type: "tab" }, configNode(emulator, { localUrl: tap.url, localRpm: "0", openRpm: "0" })];
  const profileId = emulator.data.profiles[0]?.id;
  // The workflow nodes read here: a profile's status and detail, a phone's info, the template market.
  const workflowReads: Record<string, Record<string, unknown>> = {
    "morelogin-profile-status": { envId: profileId, envIdType: "str", waitFor: "" },
    "morelogin-profile": { action: "detail", envId: profileId, envIdType: "str" },
    "morelogin-cloud-phone": { api: "local", action: "info", phoneId: emulator.data.cloudPhones[0]?.id, phoneIdType: "str" },
    "morelogin-automation": { api: "local", action: "templates", source: "market" },
  };
  for (const type of TYPES) {
    const props: Record<string, unknown> =
      workflowReads[type] ??
      (type === "morelogin-request"
        ? { api: "local", method: "GET", path: "/api/envtag/all", pathType: "str" }
        : type.includes("profile") && !type.includes("list")
          ? { envId: "", envIdType: "str" }
          : { pageNo: "1", pageNoType: "num", pageSize: "5", pageSizeType: "num", output: "array" });
    nodes.push({ id: `node-${type}`, type, z: TAB, server: CONFIG_ID, wires: [["out"]], ...props });
  }
  nodes.push({ id: "out", z: TAB, type: "helper" }, { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] }, { id: "caught", z: TAB, type: "helper" });
  return nodes;
}

/** Hands each message reaching the flow's output (`ok`) or its Catch node to `onOutcome`, in place of the last round's listeners. */
function listenForOutcomes<M extends NodeMessage>(onOutcome: (msg: M, ok: boolean) => void): void {
  const out = helper.getNode("out");
  const catcher = helper.getNode("caught");
  out.removeAllListeners("input");
  catcher.removeAllListeners("input");
  out.on("input", (msg: NodeMessage) => onOutcome(msg as M, true));
  catcher.on("input", (msg: NodeMessage) => onOutcome(msg as M, false));
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
  let tap: Wiretap;
  let scanner: SecretScanner;
  let repeatedWrites = 0;
  let writeRequests = 0;
  let refusedWrites = 0;
  let unhandled = 0;
  const onUnhandled = (): void => {
    unhandled++;
  };
  // Warnings such as "Possible EventTarget memory leak detected" would land in the user's log.
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(`${warning.name}: ${warning.message}`);
  };

  useNodeRed();
  const { emulator } = useEmulator({ profiles: 200, apps: 30, localToken: "soak-local-token-5521" });
  before(async () => {
    process.on("unhandledRejection", onUnhandled);
    process.on("warning", onWarning);
    tap = await startWiretap(emulator().localUrl, isWrite);
    scanner = new SecretScanner([emulator().credentials.apiKey, "soak-local-token-5521"]);
  });
  // useNodeRed unloads the flows after each test: each test gets the soak flow afresh.
  beforeEach(async () => {
    await loadFlow(soakFlow(emulator(), tap), credentialsFor(emulator()));
  });
  after(async () => {
    process.off("unhandledRejection", onUnhandled);
    process.off("warning", onWarning);
    await tap?.close();
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
    const profiles = emulator().data.profiles;

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
      listenForOutcomes(onOutcome);

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

    // A pause on purpose: a second outcome or a request sent again would come at no known event after the
    // round's last outcome; a soak of minutes gives it this long to show.
    await settle(200);
    const callRequests = Object.entries(emulator().stats.requests)
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

  /**
   * Checks the start and close requests of the round in the wiretap's log, then clears it (and the
   * emulator's stats). A refused request (HTTP 429) did not run, so sending it again is right; any
   * other answer (the call ran, or may have) must be the message's last request.
   */
  function checkWritesAndForget(): void {
    const found = writesPerMessage(tap.requests);
    writeRequests += found.requests;
    refusedWrites += found.refused;
    repeatedWrites += found.ranTwice;
    scanner.scanRuntime(helper.getNode("out"));
    tap.clear();
    emulator().resetStats();
  }

  function heapMb(): number {
    gc();
    gc();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  }

  it("gives every message exactly one outcome, keeps reads above 99 %, never repeats a start or close, and does not grow", async () => {
    emulator().setFaults({ latencyMs: [0, 20], http503: 0.05, reset: 0.02, malformed: 0.02, http502html: 0.01, tooMany: 0.03, retryAfterSeconds: 1, tokenFailure: 1 });
    // Token grants fail until one has failed, then recover: an event, not a time, so that a busy machine
    // that sends its first token request late still meets the failure.
    const recover = setInterval(() => {
      if (!emulator().stats.faultsInjected.tokenFailure) return;
      clearInterval(recover);
      emulator().setFaults({ latencyMs: [0, 20], http503: 0.05, reset: 0.02, malformed: 0.02, http502html: 0.01, tooMany: 0.03, retryAfterSeconds: 1 });
    }, 10);
    const statsOf = () => ({
      faults: { ...emulator().stats.faultsInjected },
      rateLimited: emulator().stats.rateLimited,
      tokensGranted: emulator().stats.tokensGranted,
      tokenRequests: emulator().stats.tokenRequests,
      requests: Object.values(emulator().stats.requests).reduce((sum, count) => sum + count, 0),
    });
    const totals: Array<ReturnType<typeof statsOf>> = [];
    // All Open API tokens are revoked when half of round one has been sent.
    const first = await round(
      "first",
      () => totals.push(statsOf()),
      () => emulator().revokeAllTokens(),
    );
    clearInterval(recover);
    // The round has ended with its quiet period after its last outcome, and heapMb() collects twice: no pause here.
    const heapAfterFirst = heapMb();

    emulator().revokeAllTokens();
    const second = await round("second", () => totals.push(statsOf()));
    // As after the first round: read at the same point of the round.
    const heapAfterSecond = heapMb();
    emulator().setFaults({});

    const figures = {
      rounds: [first, second],
      emulator: totals,
      writeRequests,
      refusedWrites,
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
    assert.equal(repeatedWrites, 0, "no start or close was sent again for one message after an answer other than a refusal");
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

  /**
   * A minute in which the emulator refuses half of all calls as too frequent (HTTP 429 without
   * Retry-After, as MoreLogin answers), with start, close and list messages mixed. A refused call did not run: the client holds the API, sends it
   * again, and gives up (kind rate-limit) after 5 refusals in a row. Whatever happens, every message
   * ends once, and no start or close is sent again once it got any other answer.
   */
  it("a minute of 429 to half the calls: one outcome per message, a start or close sent again only after a refusal, give-ups only after 5", async () => {
    emulator().resetStats();
    tap.clear();
    const figures = await minuteOfRefusals(MINUTE_FAULTS);
    console.log(`RELIABILITY soak-429 ${JSON.stringify(figures)}`);

    assert.equal(figures.missingOutcomes, 0, "every message has an outcome");
    assert.equal(figures.duplicateOutcomes, 0, "no message has two");
    assert.equal(figures.outputs + figures.caught, figures.messages);
    // A give-up after 5 refusals, or a close that found its profile not running (its start had not
    // happened yet, or had given up): nothing else.
    assert.deepEqual(
      Object.keys(figures.caughtByKind).filter((kind) => kind !== "rate-limit" && kind !== "api close -1"),
      [],
      `only rate-limit errors and closes of a profile that is not running: ${JSON.stringify(figures.caughtByKind)}`,
    );
    assert.equal(figures.writes.ranTwice, 0, "no start or close was sent again after an answer other than a refusal");
    assert.deepEqual(figures.writes.badGiveUps, [], "a start or close gave up only after 5 refusals in a row");
    assert.deepEqual(figures.writes.outputWithoutRun, [], "a start or close that came out ran exactly once, as its last request");
    assert.ok(figures.writes.ranAfterRefusal > 0, "refused starts and closes were sent again and ran");
    assert.ok(figures.writes.refused > 0, `the emulator refused ${figures.writes.refused} starts and closes`);
    assert.equal(unhandled, 0);
    assert.deepEqual(warnings, [], "no process warnings");
  });

  interface MinuteFigures {
    faults: FaultRates;
    seconds: number;
    /** From the end of the minute until the last message ended. */
    drainSeconds: number;
    messages: number;
    outputs: number;
    caught: number;
    caughtByKind: Record<string, number>;
    /** Rate-limit give-ups among start and close messages, among list messages. */
    gaveUp: { writes: number; lists: number };
    duplicateOutcomes: number;
    missingOutcomes: number;
    refused: number;
    requests: number;
    writes: {
      messages: number;
      requests: number;
      refused: number;
      ranTwice: number;
      /** Messages that were refused at least once and then ran. */
      ranAfterRefusal: number;
      /** Most requests for one message. */
      mostRequests: number;
      badGiveUps: string[];
      outputWithoutRun: string[];
    };
  }

  /** Sends start, close and list messages for a minute under `faults`, keeping MINUTE_CONCURRENCY in flight; then waits for every outcome. */
  async function minuteOfRefusals(faults: FaultRates): Promise<MinuteFigures> {
    const label = "minute";
    const profiles = emulator().data.profiles;
    const outcomes = new Map<number, Array<{ ok: boolean; kind?: string; code?: number }>>();
    const types = new Map<number, string>();
    let sent = 0;
    let finished = 0;
    const started = Date.now();
    let endedAt = 0;
    let sending = true;
    const timers: NodeJS.Timeout[] = [];
    emulator().setFaults(faults);
    await new Promise<void>((resolve, reject) => {
      const sendNext = (): void => {
        const seq = sent++;
        const type = MINUTE_TYPES[seq % MINUTE_TYPES.length] as string;
        types.set(seq, type);
        const read = !WRITE_TYPES.includes(type);
        // A close names the profile the start just before it started.
        const profile = profiles[(type === "morelogin-close-profile" ? seq - 1 : seq) % profiles.length];
        const payload = read ? "" : { envId: profile?.id, soakSeq: `${label}-${seq}` };
        helper.getNode(`node-${type}`).receive({ payload, soak: { round: label, seq, read } } as NodeMessage);
      };
      const onOutcome = (msg: NodeMessage & { soak?: { round: string; seq: number }; morelogin?: { error?: { kind?: string; code?: number } } }, ok: boolean): void => {
        const soak = msg.soak;
        if (!soak || soak.round !== label) return;
        const error = msg.morelogin?.error;
        outcomes.set(soak.seq, [...(outcomes.get(soak.seq) ?? []), ok ? { ok } : { ok, kind: error?.kind, code: error?.code }]);
        finished++;
        if (sending) sendNext();
        else if (finished >= sent) resolve();
      };
      listenForOutcomes(onOutcome);
      // After the minute: no new messages, no more faults; the ones in flight or waiting end.
      timers.push(
        setTimeout(() => {
          sending = false;
          endedAt = Date.now();
          emulator().setFaults({});
          if (finished >= sent) resolve();
        }, MINUTE_MS),
      );
      // Messages wait out refusals of up to a minute: give up on the last ones only well after that.
      timers.push(
        setTimeout(() => reject(new Error(`${sent - finished} of ${sent} messages still without an outcome ${MINUTE_DRAIN_LIMIT_MS / 1000} s after the minute`)), MINUTE_MS + MINUTE_DRAIN_LIMIT_MS),
      );
      for (let i = 0; i < MINUTE_CONCURRENCY; i++) sendNext();
    }).finally(() => {
      for (const timer of timers) clearTimeout(timer);
      emulator().setFaults({});
    });
    const seconds = (Date.now() - started) / 1000;
    // A pause on purpose: a request sent again after the last outcome would come at no known event.
    await settle(200);

    const all = [...outcomes.entries()];
    // Errors by kind, an API error also by node type and code ("api close -1": a close that found the profile not running).
    const caughtByKind: Record<string, number> = {};
    for (const [seq, list] of all) {
      for (const outcome of list) {
        if (outcome.ok) continue;
        const key = outcome.kind === "api" ? `api ${String(types.get(seq)).replace("morelogin-", "").replace("-profile", "")} ${String(outcome.code)}` : String(outcome.kind);
        caughtByKind[key] = (caughtByKind[key] ?? 0) + 1;
      }
    }
    const gaveUp = (write: boolean): number => all.filter(([seq, list]) => WRITE_TYPES.includes(types.get(seq) as string) === write && list.some((outcome) => outcome.kind === "rate-limit")).length;

    const found = writesPerMessage(tap.requests);
    const badGiveUps: string[] = [];
    const outputWithoutRun: string[] = [];
    let ranAfterRefusal = 0;
    let writeMessages = 0;
    for (const [seq, list] of all) {
      const type = types.get(seq) as string;
      if (!WRITE_TYPES.includes(type)) continue;
      writeMessages++;
      const path = type === "morelogin-start-profile" ? "/api/env/start" : "/api/env/close";
      const statuses = found.perMessage.get(`${path} ${label}-${seq}`) ?? [];
      const outcome = list[0];
      if (outcome?.kind === "rate-limit" && (statuses.length !== 5 || statuses.some((status) => status !== 429))) badGiveUps.push(`${seq}: ${statuses.join(",")}`);
      if (outcome?.ok && (statuses.at(-1) !== 200 || statuses.filter((status) => status !== 429).length !== 1)) outputWithoutRun.push(`${seq}: ${statuses.join(",")}`);
      if (outcome?.ok && statuses.length > 1) ranAfterRefusal++;
    }
    const stats = emulator().stats;
    const result: MinuteFigures = {
      faults,
      seconds,
      drainSeconds: endedAt ? (Date.now() - endedAt) / 1000 : 0,
      messages: sent,
      outputs: all.reduce((sum, [, list]) => sum + list.filter((outcome) => outcome.ok).length, 0),
      caught: all.reduce((sum, [, list]) => sum + list.filter((outcome) => !outcome.ok).length, 0),
      caughtByKind,
      gaveUp: { writes: gaveUp(true), lists: gaveUp(false) },
      duplicateOutcomes: all.filter(([, list]) => list.length > 1).length,
      missingOutcomes: sent - outcomes.size,
      refused: stats.rateLimited + stats.faultsInjected.rateLimited + stats.faultsInjected.tooMany,
      requests: Object.values(stats.requests).reduce((sum, count) => sum + count, 0),
      writes: {
        messages: writeMessages,
        requests: found.requests,
        refused: found.refused,
        ranTwice: found.ranTwice,
        ranAfterRefusal,
        mostRequests: Math.max(0, ...[...found.perMessage.values()].map((statuses) => statuses.length)),
        badGiveUps,
        outputWithoutRun,
      },
    };
    tap.clear();
    emulator().resetStats();
    return result;
  }
});

const WRITE_PATHS = new Set(["/api/env/start", "/api/env/close"]);
const isWrite = (path: string): boolean => WRITE_PATHS.has(path);

/** The message a start or close request belongs to: the `soakSeq` its payload carried into the body. */
function seqOf(request: TappedRequest): string {
  return `${request.path} ${String((request.body as { soakSeq?: string } | undefined)?.soakSeq)}`;
}

interface WriteFindings {
  requests: number;
  /** Requests answered 429: refused, not run. */
  refused: number;
  /** Messages with a request after one that was not refused (a call that ran, or may have, sent again). */
  ranTwice: number;
  /** Each message's start or close requests, in order: "path soakSeq" -> the statuses answered. */
  perMessage: Map<string, Array<TappedRequest["status"]>>;
}

function writesPerMessage(requests: readonly TappedRequest[]): WriteFindings {
  const perMessage = new Map<string, Array<TappedRequest["status"]>>();
  let refused = 0;
  for (const request of requests) {
    if (!isWrite(request.path)) continue;
    if (request.status === 429) refused++;
    const key = seqOf(request);
    perMessage.set(key, [...(perMessage.get(key) ?? []), request.status]);
  }
  const ranTwice = [...perMessage.values()].filter((statuses) => statuses.slice(0, -1).some((status) => status !== 429)).length;
  return { requests: requests.filter((request) => isWrite(request.path)).length, refused, ranTwice, perMessage };
}
