import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type Emulator } from "../../src/emulator";
import { deployAndStart, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { scaled } from "../../tools/test-limits";
import { batchUserDir, sendIn } from "../support/batch-flow";
import { waitUntil } from "../support/wait-until";
import { defaultWorkerName, openGate, queueFlow, reportedWithQueue, serverConfig, type QueuePayload, type QueueSettings } from "../support/queue-flow";
import { startRecorder, type Recorder } from "../support/recorder";
import { requireRedisServer, startRedis, type RunningRedis } from "../support/redis";
import { nodeBinary, redJs } from "../support/runtime";

const NODE_REDS = 3;
const PARALLEL = 2;
const PASSWORD = "queue-pw-5c1e9a";
const TLS_USER = "morelogin-worker";
const TLS_PASSWORD = "tls-pw-83b7d2";
/** The least the config node takes: the kill test waits this long at most for a dead worker's items. */
const SHORT_WORKER_TIMEOUT_S = 5;

interface Member {
  work: string;
  nodeRed?: RunningNodeRed;
  running: boolean;
}

/** The Node-RED flows of one case: the prefix of the flow each participating Node-RED runs. */
interface Case {
  batchName: string;
  parts: Array<{ nodeRed: RunningNodeRed; prefix: string }>;
}

/**
 * One batch worked by several real Node-RED processes through a real Redis (issue 41), each item a start
 * and a close of an emulator profile: what the emulator served is the truth of what was done. Three
 * Node-REDs are started once; each case deploys its own flows (its own batch name: its own queue) to
 * those it needs, and an empty flow to the others.
 */
describe("reliability: one batch over several Node-REDs through Redis", function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let recorder: Recorder;
  let shared: RunningRedis;
  let secure: RunningRedis;
  const members: Member[] = [];
  const started: RunningRedis[] = [];
  let nextProfile = 0;

  before(async () => {
    requireRedisServer();
    emulator = await startEmulator({ profiles: 120 });
    recorder = await startRecorder();
    shared = await startRedis({ password: PASSWORD });
    started.push(shared);
    // Before the Node-REDs: they trust its CA from their start (NODE_EXTRA_CA_CERTS).
    secure = await startRedis({ tls: true, username: TLS_USER, password: TLS_PASSWORD });
    started.push(secure);
    for (let index = 0; index < NODE_REDS; index++) members.push({ work: batchUserDir("morelogin-queue-"), running: false });
    await Promise.all(members.map(startMember));
  });

  after(async () => {
    await Promise.all(members.map((member) => member.nodeRed?.stop()));
    await Promise.all(started.map((redis) => redis.stop()));
    await recorder?.close();
    await emulator?.close();
    for (const member of members) rmSync(member.work, { recursive: true, force: true });
  });

  async function startMember(member: Member): Promise<void> {
    const contextStorage = { default: { module: "memory" }, memoryOnly: { module: "memory" } };
    const nodeRed = await startNodeRed({ userDir: join(member.work, "user"), node: nodeBinary, redJs, settings: { contextStorage }, env: secure.ca ? { NODE_EXTRA_CA_CERTS: secure.ca } : {} });
    member.nodeRed = nodeRed;
    member.running = true;
    void nodeRed.exited.then(() => {
      if (member.nodeRed === nodeRed) member.running = false;
    });
  }

  /** Profiles no other case used: each case's starts are its own. */
  const profiles = (count: number): string[] => {
    const ids = emulator.data.profiles.slice(nextProfile, nextProfile + count).map((profile) => profile.id);
    nextProfile += count;
    assert.equal(ids.length, count, "the emulator has profiles enough");
    return ids;
  };
  const startsOf = (envId: string): number => emulator.served().profiles[envId]?.starts ?? 0;

  async function allRunning(): Promise<void> {
    for (const member of members) if (!member.running) await startMember(member);
  }

  /** Every Node-RED running (one a test killed is started again), the first `count` with the case's batch flow, the others with none. */
  async function deployCase(batchName: string, count: number, queue: QueueSettings, options: { workerTimeout?: string; resend?: boolean; besideFirst?: FlowNode[] } = {}): Promise<Case> {
    await allRunning();
    const parts = members.map((member, index) => ({ nodeRed: member.nodeRed as RunningNodeRed, prefix: `${batchName}-${index + 1}` }));
    await Promise.all(
      parts.map(({ nodeRed, prefix }, index) => {
        const flows: FlowNode[] = [serverConfig(emulator)];
        if (index < count) flows.push(...queueFlow(recorder.url, { batchName, prefix, queue: { workerTimeout: options.workerTimeout, ...queue }, parallel: PARALLEL, resend: options.resend }));
        if (index === 0) flows.push(...(options.besideFirst ?? []));
        return deployAndStart(nodeRed, flows);
      }),
    );
    return { batchName, parts: parts.slice(0, count) };
  }

  const reportOf = (prefix: string) => reportedWithQueue(recorder, prefix);
  const outsOf = (prefix: string): string[] => reportOf(prefix).out;
  const allOuts = (batch: Case): string[] => batch.parts.flatMap(({ prefix }) => outsOf(prefix));
  /** When an item (`id#attempt`) went out on any of these Node-REDs, as the recorder got it. */
  const outTimes = (batch: Case, entry: string): number[] =>
    recorder.requests.filter((request) => batch.parts.some(({ prefix }) => request.url === `/${prefix}/out`) && JSON.parse(request.body) === entry).map((request) => request.at);
  const donesOf = (batch: Case): QueuePayload[] =>
    batch.parts.flatMap(({ prefix }) =>
      reportOf(prefix)
        .progress.filter((message) => message.topic === "done")
        .map((message) => message.payload),
    );
  const statusesOf = (batch: Case) => batch.parts.flatMap(({ prefix }) => reportOf(prefix).status);
  const lastStatus = (prefix: string) => reportOf(prefix).status.at(-1);
  const where = (batch: Case): string => batch.parts.map(({ prefix }) => `${prefix}: out ${outsOf(prefix).join(" ") || "none"}; status "${lastStatus(prefix)?.text ?? ""}"`).join("; ");

  /** Waits until each Node-RED has `PARALLEL` items out (held at its gate): every one of them took part of the list. */
  async function eachHasItemsOut(batch: Case): Promise<void> {
    await waitUntil(
      () => batch.parts.every(({ prefix }) => outsOf(prefix).length >= PARALLEL),
      () => `each Node-RED has ${PARALLEL} items out (${where(batch)})`,
    );
    for (const { prefix } of batch.parts) assert.equal(outsOf(prefix).length, PARALLEL, `${prefix} takes at most parallel = ${PARALLEL} at a time (${where(batch)})`);
  }

  /**
   * The `status` command sent to each Node-RED, and its answer: once every one of them says the batch has
   * ended, a second `done` would have come (it is sent as a Node-RED sees the batch end).
   */
  async function statusOfEach(batch: Case): Promise<QueuePayload[]> {
    const answers: QueuePayload[] = [];
    for (const { nodeRed, prefix } of batch.parts) {
      const before = reportOf(prefix).progress.length;
      await sendIn(nodeRed, prefix, { command: "status" });
      await waitUntil(() => reportOf(prefix).progress.length > before, `${prefix} answers the status command`);
      const answer = reportOf(prefix)
        .progress.slice(before)
        .find((message) => message.topic === "progress");
      assert.ok(answer, `${prefix} answers status on output 2`);
      answers.push(answer.payload);
    }
    return answers;
  }

  /**
   * The batch's one `done`, once every Node-RED says, when asked, that the batch has ended (each follows
   * Redis, a moment behind); its counts add up, and every Node-RED has the same figures.
   */
  async function theOneDone(batch: Case, total: number): Promise<QueuePayload> {
    await waitUntil(
      () => donesOf(batch).length >= 1,
      () => `the batch ends (${where(batch)})`,
    );
    const answers = await answersUntil(batch, (answer) => answer.endedAt !== null);
    for (const answer of answers) assert.equal(answer.total, total, "each Node-RED counts the whole batch");
    const dones = donesOf(batch);
    assert.equal(dones.length, 1, `exactly one Node-RED sends done, once: ${dones.length} (${where(batch)})`);
    const [done] = dones;
    assert.ok(done);
    assert.equal(done.total, total);
    assert.equal(done.running + done.waiting, 0);
    assert.equal(
      done.done + done.failed + done.timedOut + done.interrupted + done.cancelled,
      total,
      `the counts add up: ${JSON.stringify(done)}; each Node-RED, asked: ${JSON.stringify(answers)} (${where(batch)})`,
    );
    for (const answer of answers) assert.deepEqual(countsOf(answer), countsOf(done), "every Node-RED has the same figures");
    return done;
  }

  const countsOf = (payload: QueuePayload) => ({ done: payload.done, failed: payload.failed, timedOut: payload.timedOut, interrupted: payload.interrupted, cancelled: payload.cancelled });

  /** Each item went out once in all (first attempt), and its profile was started once. */
  function eachOnce(batch: Case, ids: string[]): void {
    assert.deepEqual([...allOuts(batch)].sort(), ids.map((id) => `${id}#1`).sort(), "each item went out once, on one Node-RED");
    assert.deepEqual(
      ids.filter((id) => startsOf(id) !== 1),
      [],
      "each profile was started once",
    );
  }

  for (const count of [2, 3]) {
    it(`${count} Node-REDs share one list: each takes its part, each item goes out once, one done counts them all`, async () => {
      const batch = await deployCase(`queue-share-${count}`, count, { url: shared.url, password: PASSWORD });
      const ids = profiles(count * PARALLEL * 2);
      const [first] = batch.parts;
      assert.ok(first);
      await sendIn(first.nodeRed, first.prefix, { payload: ids });
      await eachHasItemsOut(batch);
      await waitUntil(
        () => batch.parts.every(({ prefix }) => reportOf(prefix).status.some((status) => new RegExp(`\\b${count} workers\\b`).test(status.text ?? ""))),
        () => `each status says ${count} workers (${where(batch)})`,
      );
      for (const { nodeRed, prefix } of batch.parts) await openGate(nodeRed, prefix);

      const done = await theOneDone(batch, ids.length);
      assert.deepEqual(countsOf(done), { done: ids.length, failed: 0, timedOut: 0, interrupted: 0, cancelled: 0 });
      eachOnce(batch, ids);
      const workers = done.workers ?? [];
      assert.deepEqual(
        workers.map((worker) => worker.name),
        batch.parts.map(({ nodeRed }) => defaultWorkerName(nodeRed)).sort(),
        "the workers, by their default names (host name and port), sorted",
      );
      for (const worker of workers) {
        const part = batch.parts.find(({ nodeRed }) => defaultWorkerName(nodeRed) === worker.name);
        assert.ok(part);
        assert.deepEqual(
          { running: worker.running, done: worker.done, failed: worker.failed },
          { running: 0, done: reportOf(part.prefix).back.length, failed: 0 },
          `${worker.name} counts the items that came back to it`,
        );
      }
    });
  }

  for (const resend of [false, true]) {
    const fate = resend ? "sent again once by the others (resend)" : "counted interrupted";
    it(`a Node-RED killed with items out: within workerTimeout they are ${fate}, the others finish the list, one done`, async () => {
      const batch = await deployCase(`queue-kill${resend ? "-resend" : ""}`, NODE_REDS, { url: shared.url, password: PASSWORD }, { workerTimeout: String(SHORT_WORKER_TIMEOUT_S), resend });
      const ids = profiles(NODE_REDS * PARALLEL * 2);
      const [first, second, victim] = batch.parts;
      assert.ok(first && second && victim);
      await sendIn(first.nodeRed, first.prefix, { payload: ids });
      await eachHasItemsOut(batch);
      // Held at its gate: never started.
      const lost = outsOf(victim.prefix).map((entry) => entry.replace(/#\d+$/, ""));
      const killedAt = Date.now();
      await victim.nodeRed.kill();
      const survivors: Case = { ...batch, parts: [first, second] };
      await openGate(first.nodeRed, first.prefix);
      await openGate(second.nodeRed, second.prefix);

      await waitUntil(
        () => donesOf(survivors).length >= 1,
        () => `the batch ends without the killed Node-RED (${where(survivors)})`,
      );
      const tookMs = Date.now() - killedAt;
      // The rest of the list takes the survivors a moment; the killed one's items are what the end waits for.
      const bound = scaled(SHORT_WORKER_TIMEOUT_S * 1000 + 5_000);
      assert.ok(tookMs <= bound, `the killed Node-RED's items are taken care of within workerTimeout (${SHORT_WORKER_TIMEOUT_S} s): the batch ended ${tookMs} ms after the kill, over ${bound} ms`);
      const done = await theOneDone(survivors, ids.length);
      const rest = ids.filter((id) => !lost.includes(id));
      if (resend) {
        assert.deepEqual(countsOf(done), { done: ids.length, failed: 0, timedOut: 0, interrupted: 0, cancelled: 0 }, `the killed Node-RED's ${PARALLEL} items are done by the others`);
        const early = lost.flatMap((id) => outTimes(survivors, `${id}#2`)).filter((at) => at < killedAt + SHORT_WORKER_TIMEOUT_S * 1000);
        assert.deepEqual(early, [], `nothing is taken from a Node-RED before workerTimeout (${SHORT_WORKER_TIMEOUT_S} s) has passed without a word from it`);
        assert.deepEqual(
          (done.workedTwice ?? []).map((entry) => `${entry.id}#${entry.attempt} from ${entry.from}`).sort(),
          lost.map((id) => `${id}#2 from ${defaultWorkerName(victim.nodeRed)}`).sort(),
          "the done names the items that went out on two Node-REDs",
        );
        assert.deepEqual(
          [...allOuts(survivors)].sort(),
          [...rest.map((id) => `${id}#1`), ...lost.map((id) => `${id}#2`)].sort(),
          "the killed Node-RED's items went out again once (attempt 2), the others once",
        );
      } else {
        assert.deepEqual(countsOf(done), { done: ids.length - PARALLEL, failed: 0, timedOut: 0, interrupted: PARALLEL, cancelled: 0 }, `the killed Node-RED's ${PARALLEL} items are interrupted`);
        assert.deepEqual([...allOuts(survivors)].sort(), rest.map((id) => `${id}#1`).sort(), "no one sent the killed Node-RED's items again (without resend), the others went out once");
        assert.deepEqual(
          (done.interruptions ?? []).map((entry) => `${entry.id}#${entry.attempt}@${entry.worker}`).sort(),
          lost.map((id) => `${id}#1@${defaultWorkerName(victim.nodeRed)}`).sort(),
          "the done names each interrupted item and the Node-RED that had it out",
        );
      }
      assert.deepEqual(
        (resend ? ids : rest).filter((id) => startsOf(id) !== 1),
        [],
        "each profile that was to be done was started once",
      );
      if (!resend)
        assert.deepEqual(
          lost.filter((id) => startsOf(id) !== 0),
          [],
          "the interrupted items' profiles were never started",
        );
      const workers = done.workers ?? [];
      assert.equal(
        workers.reduce((sum, worker) => sum + worker.done, 0),
        done.done,
        "the workers' done add up to the batch's",
      );
      assert.deepEqual(
        workers.filter((worker) => worker.running !== 0),
        [],
        "no worker has an item running",
      );
      const dead = workers.find((worker) => worker.name === defaultWorkerName(victim.nodeRed));
      assert.equal(dead?.done ?? 0, 0, "the killed Node-RED did none");
    });
  }

  it("a Node-RED frozen for 0.6 x workerTimeout keeps its items: each item goes out once and its profile starts once, one done", async () => {
    const timeoutS = 10;
    const batch = await deployCase("queue-freeze-short", 2, { url: shared.url, password: PASSWORD }, { workerTimeout: String(timeoutS), resend: true });
    const ids = profiles(2 * PARALLEL * 2);
    const [first, frozen] = batch.parts;
    assert.ok(first && frozen);
    await sendIn(first.nodeRed, first.prefix, { payload: ids });
    await eachHasItemsOut(batch);
    await openGate(first.nodeRed, first.prefix);
    // The other works on meanwhile; it must not take the frozen one's items.
    await frozen.nodeRed.freeze(timeoutS * 600);
    await openGate(frozen.nodeRed, frozen.prefix);
    const done = await theOneDone(batch, ids.length);
    assert.deepEqual(countsOf(done), { done: ids.length, failed: 0, timedOut: 0, interrupted: 0, cancelled: 0 });
    eachOnce(batch, ids);
    assert.deepEqual(done.workedTwice, [], "nothing went out twice");
    assert.doesNotMatch(frozen.nodeRed.output(), /lost its items/, "the frozen Node-RED lost nothing");
  });

  it("a Node-RED frozen for 2.5 x workerTimeout: the other takes its items and finishes; the done names them as worked twice; the woken one says so and counts nothing twice", async () => {
    const batch = await deployCase("queue-freeze-long", 2, { url: shared.url, password: PASSWORD }, { workerTimeout: String(SHORT_WORKER_TIMEOUT_S), resend: true });
    const ids = profiles(2 * PARALLEL * 2);
    const [first, frozen] = batch.parts;
    assert.ok(first && frozen);
    await sendIn(first.nodeRed, first.prefix, { payload: ids });
    await eachHasItemsOut(batch);
    await waitUntil(
      () => reportOf(first.prefix).status.some((status) => /\b2 workers\b/.test(status.text ?? "")),
      () => `the first says 2 workers (${where(batch)})`,
    );
    const held = outsOf(frozen.prefix).map((entry) => entry.replace(/#\d+$/, ""));
    await openGate(first.nodeRed, first.prefix);
    const frozenAt = Date.now();
    const freezing = frozen.nodeRed.freeze(SHORT_WORKER_TIMEOUT_S * 2500);
    const alone: Case = { ...batch, parts: [first] };
    await waitUntil(
      () => donesOf(alone).length >= 1,
      () => `the first ends the batch while the other is frozen (${where(batch)})`,
    );
    const firstName = defaultWorkerName(first.nodeRed);
    const frozenName = defaultWorkerName(frozen.nodeRed);
    const [done] = donesOf(alone);
    assert.ok(done);
    assert.deepEqual(countsOf(done), { done: ids.length, failed: 0, timedOut: 0, interrupted: 0, cancelled: 0 }, "the first did the frozen one's items too (resend)");
    assert.deepEqual(
      (done.workedTwice ?? []).map((entry) => `${entry.id}#${entry.attempt} ${entry.from}>${entry.to}`).sort(),
      held.map((id) => `${id}#2 ${frozenName}>${firstName}`).sort(),
      "the done names the frozen one's items, from it to the first",
    );
    const early = held.flatMap((id) => outTimes(alone, `${id}#2`)).filter((at) => at < frozenAt + SHORT_WORKER_TIMEOUT_S * 1000);
    assert.deepEqual(early, [], "nothing was taken before workerTimeout had passed");
    await waitUntil(() => reportOf(first.prefix).status.some((status) => /\b1 worker\b/.test(status.text ?? "")), "the frozen one leaves the first's status once unheard for workerTimeout");
    // The status posts are concurrent requests: the last to reach the recorder need not be the last sent.
    const endStatus = new RegExp(`^${ids.length} of ${ids.length} · ${PARALLEL} worked twice\\b`);
    await waitUntil(
      () => reportOf(first.prefix).status.some((status) => status.fill === "yellow" && endStatus.test(status.text ?? "")),
      `the end is not green: items went out twice (${JSON.stringify(reportOf(first.prefix).status.slice(-3))})`,
    );
    const statuses = reportOf(first.prefix).status;
    assert.ok(!statuses.some((status) => status.fill === "green"), "never green");

    await freezing;
    await waitUntil(() => /lost its items/.test(frozen.nodeRed.output()), "the woken Node-RED says it lost its items");
    const said =
      frozen.nodeRed
        .output()
        .split("\n")
        .find((line) => /lost its items/.test(line)) ?? "";
    for (const id of held) assert.ok(said.includes(id), `the warning names ${id}: ${said}`);
    // It stops nothing it cannot: the items it held go on (their profiles start a second time), and count once.
    await openGate(frozen.nodeRed, frozen.prefix);
    await waitUntil(() => reportOf(frozen.prefix).back.length >= held.length, "the woken one's held items come back to its batch node");
    // The woken one follows Redis a moment behind (a progress it sent on waking can still be on its way).
    const answers = await answersUntil(batch, (answer) => answer.endedAt !== null);
    for (const answer of answers)
      assert.deepEqual(
        countsOf(answer),
        countsOf(done),
        `each item counted once, on both Node-REDs: ${JSON.stringify(answer)}; the woken one's output 2: ${JSON.stringify(reportOf(frozen.prefix).progress.map((message) => [message.topic, message.payload.id, message.payload.done, message.payload.endedAt]))}`,
      );
    assert.deepEqual(
      ids.filter((id) => startsOf(id) !== (held.includes(id) ? 2 : 1)),
      [],
      "only the items named as worked twice were started twice",
    );
    assert.equal(donesOf(batch).length, 1, "one done");
  });

  it("pause sent to one Node-RED stops them all; resume sent to another carries on", async () => {
    const batch = await deployCase("queue-pause", NODE_REDS, { url: shared.url, password: PASSWORD });
    const ids = profiles(NODE_REDS * PARALLEL * 2);
    const [first, second] = batch.parts;
    assert.ok(first && second);
    await sendIn(first.nodeRed, first.prefix, { payload: ids });
    await eachHasItemsOut(batch);
    await sendIn(first.nodeRed, first.prefix, { command: "pause" });
    await waitUntil(
      () => batch.parts.every(({ prefix }) => reportOf(prefix).status.some((status) => /^paused\b/.test(status.text ?? ""))),
      () => `every Node-RED's status says paused (${where(batch)})`,
    );

    // The items out come back; a paused batch sends no new one in their place.
    for (const { nodeRed, prefix } of batch.parts) await openGate(nodeRed, prefix);
    const out = NODE_REDS * PARALLEL;
    await waitUntil(
      () => batch.parts.reduce((sum, { prefix }) => sum + reportOf(prefix).back.length, 0) === out,
      () => `the ${out} items out come back (${where(batch)})`,
    );
    const answers = await answersUntil(batch, (answer) => answer.done === out && answer.running === 0);
    for (const answer of answers) assert.equal(answer.waiting, ids.length - out, "the rest waits");
    assert.equal(allOuts(batch).length, out, `while paused, no Node-RED sent a new item (${where(batch)})`);

    await sendIn(second.nodeRed, second.prefix, { command: "resume" });
    const done = await theOneDone(batch, ids.length);
    assert.deepEqual(countsOf(done), { done: ids.length, failed: 0, timedOut: 0, interrupted: 0, cancelled: 0 });
    eachOnce(batch, ids);
  });

  /** Asks each Node-RED for its status until every answer satisfies `holds` (the batch's counts travel through Redis); every 200 ms, as each ask is a command to each Node-RED. */
  function answersUntil(batch: Case, holds: (answer: QueuePayload) => boolean): Promise<QueuePayload[]> {
    return waitUntil(
      () => statusOfEach(batch),
      (answers) => answers.every(holds),
      () => `every Node-RED's answer to status holds (${where(batch)})`,
      30_000,
      { everyMs: 200 },
    );
  }

  it("Redis stopped and started mid-batch: the status says it is unreachable (no password), nothing new goes out, the items out are counted when it is back", async () => {
    const outage = await startRedis({ persist: true, password: PASSWORD });
    started.push(outage);
    try {
      await outageCase(outage);
    } finally {
      await outage.stop();
    }
  });

  async function outageCase(outage: RunningRedis): Promise<void> {
    const batch = await deployCase("queue-outage", 2, { url: outage.url, password: PASSWORD });
    const ids = profiles(2 * PARALLEL * 2);
    const [first] = batch.parts;
    assert.ok(first);
    await sendIn(first.nodeRed, first.prefix, { payload: ids });
    await eachHasItemsOut(batch);

    await outage.shutdown();
    await waitUntil(
      () => batch.parts.every(({ prefix }) => reportOf(prefix).status.some((status) => status.fill === "red" && status.shape === "ring" && /^Redis unreachable: ECONNREFUSED/.test(status.text ?? ""))),
      () => `every Node-RED's status says "Redis unreachable: ECONNREFUSED" (${where(batch)})`,
    );
    // A list sent now is refused at once with the reason (a Catch sees it), not left waiting on Redis.
    await sendIn(first.nodeRed, first.prefix, { payload: profiles(1) });
    await waitUntil(
      () => reportOf(first.prefix).errors.some((error) => /its queue on redis:\/\/127\.0\.0\.1:\d+\/0 cannot take it now \(ECONNREFUSED\): nothing was added/.test(error)),
      `a list sent while Redis is down is refused with the reason (${reportOf(first.prefix).errors.join("; ")})`,
    );
    for (const { nodeRed, prefix } of batch.parts) await openGate(nodeRed, prefix);
    const out = 2 * PARALLEL;
    await waitUntil(
      () => batch.parts.reduce((sum, { prefix }) => sum + reportOf(prefix).back.length, 0) === out,
      () => `the ${out} items out come back while Redis is down (${where(batch)})`,
    );
    assert.equal(allOuts(batch).length, out, `while Redis was down, no new item went out (${where(batch)})`);
    await outage.restart();

    const done = await theOneDone(batch, ids.length);
    assert.deepEqual(countsOf(done), { done: ids.length, failed: 0, timedOut: 0, interrupted: 0, cancelled: 0 }, "the items that came back while Redis was down are counted done");
    eachOnce(batch, ids);
    for (const status of statusesOf(batch)) assert.ok(!(status.text ?? "").includes(PASSWORD), `no status shows the password: "${status.text}"`);
  }

  it("a wrong password is a clear error naming no password, in the status and the log; a password in the URL is refused and shows nowhere", async () => {
    const wrongPassword = "wrong-pw-9e2b";
    const urlSecret = "url-pw-41d0";
    const userInfo = `intruder:${urlSecret}`;
    await allRunning();
    const nodeRed = members[0]?.nodeRed as RunningNodeRed;
    const from = nodeRed.output().length;
    const log = (): string => nodeRed.output().slice(from);
    // Beside it, a queue whose URL holds user info, which the editor tells people not to put there.
    const inUrl = { batchName: "queue-userinfo", prefix: "queue-userinfo-1", queue: { url: shared.url.replace("//", `//${userInfo}@`) }, parallel: PARALLEL };
    const wrong = await deployCase("queue-wrong", 1, { url: shared.url, password: wrongPassword }, { besideFirst: queueFlow(recorder.url, inUrl) });
    const [part] = wrong.parts;
    assert.ok(part);
    // A user sends a list and looks at the node.
    await sendIn(nodeRed, part.prefix, { payload: profiles(2) });
    await sendIn(nodeRed, inUrl.prefix, { payload: profiles(2) });

    await waitUntil(
      () => reportOf(part.prefix).status.some((status) => status.fill === "red" && status.shape === "ring" && status.text === "Redis refused the login"),
      () => `the status says "Redis refused the login" (${where(wrong)})`,
    );
    await waitUntil(() => /\[error\] \[morelogin-(batch|queue)\b/.test(log()), `the node logs an error (its log: ${log()})`);
    const errors = log()
      .split("\n")
      .filter((line) => line.includes("[error]"));
    assert.ok(
      errors.some((line) => /Redis/.test(line) && /login|password|auth/i.test(line)),
      `the error says Redis refused the login: ${errors.join("\n")}`,
    );
    // Refused before it connects: its list ends with the reason (its red status comes as the node starts, before a Status node can see it).
    await waitUntil(
      () => reportOf(inUrl.prefix).errors.some((error) => /URL holds a password/.test(error)),
      `the list sent to the queue with a password in its URL ends with the reason (${reportOf(inUrl.prefix).errors.join("; ")})`,
    );
    assert.deepEqual([...outsOf(part.prefix), ...outsOf(inUrl.prefix)], [], "no item went out");

    const texts = [part.prefix, inUrl.prefix].flatMap((prefix) => [...reportOf(prefix).status.map((status) => status.text ?? ""), ...reportOf(prefix).errors]);
    texts.push(log());
    for (const secret of [wrongPassword, PASSWORD, urlSecret, userInfo]) {
      assert.deepEqual(
        texts.filter((text) => text.includes(secret)),
        [],
        `no status, error or log line names "${secret}"`,
      );
    }
  });

  it("TLS (rediss://) with a user and password: a Redis with a test certificate carries the batch", async () => {
    const batch = await deployCase("queue-tls", 2, { url: secure.url, username: TLS_USER, password: TLS_PASSWORD });
    assert.match(secure.url, /^rediss:\/\//);
    const ids = profiles(2 * PARALLEL * 2);
    const [first] = batch.parts;
    assert.ok(first);
    await sendIn(first.nodeRed, first.prefix, { payload: ids });
    await eachHasItemsOut(batch);
    for (const { nodeRed, prefix } of batch.parts) await openGate(nodeRed, prefix);
    const done = await theOneDone(batch, ids.length);
    assert.deepEqual(countsOf(done), { done: ids.length, failed: 0, timedOut: 0, interrupted: 0, cancelled: 0 });
    eachOnce(batch, ids);
    for (const status of statusesOf(batch)) assert.ok(!(status.text ?? "").includes(TLS_PASSWORD), `no status shows the password: "${status.text}"`);
  });
});
