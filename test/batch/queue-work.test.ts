import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { BatchRunner, type BatchProgress, type BatchSettings, type BatchTag } from "../../src/batch";
import { Redis } from "ioredis";
import { QueueBatchWork } from "../../src/batch/queue-work";
import { waitUntil } from "../support/wait-until";
import { type RunningRedis, startRedis } from "../support/redis";

/** What one runner of a crew did: the items it sent (`item#attempt`), its output 2 and its statuses. */
interface Member {
  name: string;
  runner: BatchRunner;
  work: QueueBatchWork;
  sent: string[];
  progress: Array<{ topic: string; payload: BatchProgress }>;
  statuses: string[];
  /** Items out here, to answer with `answer`. */
  out: BatchTag[];
}

/** How an item comes back: at once (done, or failed for the IDs named), or only when the test answers it. */
interface Behaviour {
  fail?: (item: string, attempt: number) => boolean;
  hold?: boolean;
  /** Each item comes back this long after it went out (else on the next turn). */
  takesMs?: number;
  /** With `hold`: once open, items come back at once instead of waiting for the test. */
  gate?: { open: boolean };
}

/**
 * In-process runners over one Redis, each as a batch node on another Node-RED would be (its own worker
 * name and connections), sharing one queue: the runner and QueueBatchWork without Node-RED around them.
 * test/reliability/batch-queue.test.ts does the same with real Node-RED processes.
 */
describe("batch: QueueBatchWork, several runners on one Redis", function () {
  this.timeout(60_000);
  let redis: RunningRedis;
  const crews: Member[][] = [];

  before(async () => {
    redis = await startRedis();
  });

  afterEach(async () => {
    for (const member of crews.splice(0).flat()) {
      member.runner.stop();
      await member.work.close();
    }
  });

  after(() => redis?.stop());

  function crew(names: string[], settings: Partial<BatchSettings> & { workerTimeoutMs?: number; url?: string } = {}, behaviour: Behaviour = {}): Member[] {
    const queue = `test-${randomUUID()}`;
    const members = names.map((name) => {
      const member = { name, sent: [], progress: [], statuses: [], out: [] } as unknown as Member;
      const work = QueueBatchWork.open({
        url: settings.url ?? redis.url,
        where: settings.url ?? redis.url,
        queue,
        worker: name,
        workerTimeoutMs: settings.workerTimeoutMs ?? 30_000,
        resend: settings.resend ?? false,
        onChange: () => member.runner?.changed(),
      });
      const runner = new BatchRunner({ parallel: 3, retries: 0, itemTimeoutMs: 0, resend: false, ...settings }, work, {
        sendItem: (msg) => {
          const tag = (msg.morelogin as { batch: BatchTag }).batch;
          member.sent.push(`${tag.item}#${tag.attempt}`);
          if (behaviour.hold && !behaviour.gate?.open) member.out.push(tag);
          else setTimeout(() => runner.back(tag, behaviour.fail?.(tag.item, tag.attempt) ? new Error(`${tag.item} refused`) : undefined), behaviour.takesMs ?? 0);
        },
        sendProgress: (topic, payload) => member.progress.push({ topic, payload }),
        status: (status) => member.statuses.push("text" in status ? String(status.text) : ""),
        failed: (error) => assert.fail(`${name}: ${error.message}`),
        generateId: () => randomUUID().replace(/-/g, "").slice(0, 16),
        clone: (value) => structuredClone(value),
        now: () => Date.now(),
        t: (key, values) => `${key.replace("morelogin-batch.", "")}${values ? ` ${JSON.stringify(values)}` : ""}`,
      });
      Object.assign(member, { runner, work });
      runner.begin();
      return member;
    });
    crews.push(members);
    return members;
  }

  const items = (count: number): string[] => Array.from({ length: count }, (_, index) => `item-${index}`);
  const donesOf = (members: Member[]): BatchProgress[] => members.flatMap((member) => member.progress.filter((entry) => entry.topic === "done").map((entry) => entry.payload));
  const sentBy = (members: Member[]): string[] => members.flatMap((member) => member.sent);
  /** Every item the runners hold comes back, done. */
  const answerHeld = (members: Member[]): void => {
    for (const member of members) for (const tag of member.out.splice(0)) member.runner.back(tag, undefined);
  };

  it("three share a list: each item goes out once, on one of them; exactly one sends done, with every worker's share", async () => {
    const gate = { open: false };
    const members = crew(["a", "b", "c"], {}, { hold: true, gate });
    await members[1]?.runner.add(items(90), { topic: "list" });
    // Each holds its first items until all three have theirs out: every runner has a share by then, whatever the machine's pace.
    await waitUntil(() => members.every((member) => member.out.length === 3), "each of the three has three items out", 20_000);
    gate.open = true;
    answerHeld(members);
    await waitUntil(() => donesOf(members).length > 0, "the done", 20_000);
    const sent = sentBy(members);
    assert.equal(sent.length, 90, "90 items went out in all");
    assert.equal(new Set(sent).size, 90, "none twice");
    assert.ok(
      members.every((member) => member.sent.length > 0),
      `every runner took a share: ${members.map((member) => `${member.name} ${member.sent.length}`).join(", ")}`,
    );
    // Every runner sees the end (its status shows the whole batch ended), and still only one announced it.
    const lastStatuses = (): string => members.map((member) => `${member.name}: ${member.statuses.at(-1)}`).join("; ");
    await waitUntil(() => members.every((member) => member.statuses.at(-1)?.startsWith('status.of {"ended":"90","total":"90"}')), "every status shows 90 of 90", 20_000).catch((error: Error) => {
      throw new Error(`${error.message} (${lastStatuses()})`);
    });
    const dones = donesOf(members);
    assert.equal(dones.length, 1, "one done in all");
    const [done] = dones;
    assert.deepEqual({ done: done?.done, failed: done?.failed, running: done?.running, waiting: done?.waiting, total: done?.total }, { done: 90, failed: 0, running: 0, waiting: 0, total: 90 });
    assert.deepEqual(
      done?.workers,
      members.map((member) => ({ name: member.name, running: 0, done: member.sent.length, failed: 0 })),
    );
  });

  it("the done's workers add up to its counts, also when the last items ended after the last refresh", async () => {
    const members = crew(["solo"], { parallel: 5 }, { takesMs: 30 });
    await members[0]?.runner.add(items(40), {});
    await waitUntil(() => donesOf(members).length > 0, "the done", 20_000);
    const [done] = donesOf(members);
    assert.deepEqual({ done: done?.done, running: done?.running, workers: done?.workers }, { done: 40, running: 0, workers: [{ name: "solo", running: 0, done: 40, failed: 0 }] });
  });

  it("a failed item is tried again by any of them and counted failed once, with its error, when its retries are spent", async () => {
    const members = crew(["a", "b"], { retries: 1 }, { fail: (item) => item === "item-4" || item === "item-7" });
    await members[0]?.runner.add(items(12), {});
    await waitUntil(() => donesOf(members).length > 0, "the done", 20_000);
    const sent = sentBy(members);
    assert.deepEqual(sent.filter((entry) => entry.startsWith("item-4#") || entry.startsWith("item-7#")).sort(), ["item-4#1", "item-4#2", "item-7#1", "item-7#2"]);
    const [done] = donesOf(members);
    assert.deepEqual({ done: done?.done, failed: done?.failed }, { done: 10, failed: 2 });
    assert.deepEqual(done?.failures.map((failure) => `${failure.id}#${failure.attempt}: ${failure.error}`).sort(), ["item-4#2: item-4 refused", "item-7#2: item-7 refused"]);
    assert.equal(donesOf(members).length, 1);
  });

  /**
   * Two runners with three items out each; one goes (stopped, its connections closed, its items never
   * answered); the other answers what it has and everything it gets after, until the done.
   */
  async function oneRunnerGone(count: number, settings: Partial<BatchSettings>): Promise<{ alive: Member; lost: string[]; done: BatchProgress | undefined }> {
    const gate = { open: false };
    const members = crew(["a", "gone"], { workerTimeoutMs: 4000, ...settings }, { hold: true, gate });
    const [alive, gone] = members as [Member, Member];
    await alive.runner.add(items(count), {});
    await waitUntil(() => gone.out.length === 3 && alive.out.length === 3, "each has three items out", 20_000);
    const lost = gone.out.map((tag) => tag.item);
    gone.runner.stop();
    await gone.work.close();
    gate.open = true;
    answerHeld([alive]);
    await waitUntil(() => donesOf([alive]).length > 0, "the done, on the live runner", 20_000);
    return { alive, lost, done: donesOf([alive])[0] };
  }

  it("the items out on a runner that is gone are interrupted within workerTimeout; the others finish the list", async () => {
    const { alive, lost, done } = await oneRunnerGone(10, {});
    assert.deepEqual({ done: done?.done, interrupted: done?.interrupted, total: done?.total }, { done: 7, interrupted: 3, total: 10 });
    assert.ok(
      lost.every((item) => !alive.sent.some((entry) => entry.startsWith(`${item}#`))),
      "no interrupted item was sent again",
    );
    assert.deepEqual(
      done?.interruptions?.map((entry) => `${entry.id}#${entry.attempt}@${entry.worker}`).sort(),
      lost.map((item) => `${item}#1@gone`).sort(),
      "the done names each interrupted item, with the runner that had it out",
    );
    assert.deepEqual(done?.workedTwice, [], "nothing went out twice without resend");
  });

  it("with resend, the items of a runner that is gone are sent again once, as attempt 2, by another", async () => {
    const { alive, lost, done } = await oneRunnerGone(8, { resend: true });
    assert.deepEqual({ done: done?.done, interrupted: done?.interrupted }, { done: 8, interrupted: 0 });
    assert.deepEqual(alive.sent.filter((entry) => lost.some((item) => entry.startsWith(`${item}#`))).sort(), lost.map((item) => `${item}#2`).sort());
    assert.deepEqual(
      done?.workedTwice?.map((entry) => `${entry.id}#${entry.attempt} ${entry.from}>${entry.to}`).sort(),
      lost.map((item) => `${item}#2 gone>a`).sort(),
      "the done names each item that went out on two runners, from the one that went to the one that took it",
    );
    assert.deepEqual(done?.interruptions, []);
  });

  it("a list sent to one while a batch runs waits its turn on all; cancelled by its ID from another, it ends with its own done", async () => {
    const members = crew(["a", "b"], {}, { hold: true });
    const [a, b] = members as [Member, Member];
    await a.runner.add(items(4), {});
    await b.runner.add(["x", "y"], {});
    await b.runner.add(["z"], {});
    await waitUntil(() => a.out.length + b.out.length === 4, "the first list's four items are out", 20_000);
    // a follows Redis a moment behind b's adds: asked again until its answer has both lists (bounded).
    const queued = await waitUntil(
      async () => {
        await a.runner.command("status");
        return a.progress.at(-1)?.payload.queued ?? [];
      },
      (lists) => lists.length === 2,
      "a's status lists the two lists waiting",
      20_000,
    );
    assert.equal(queued.length, 2, "a's status lists the two lists waiting");
    await b.runner.command("cancel", queued[1]);
    await waitUntil(() => donesOf(members).some((done) => done.id === queued[1]), "the done of the list cancelled while it waited", 20_000);
    assert.deepEqual(
      donesOf(members)
        .filter((done) => done.id === queued[1])
        .map((done) => ({ total: done.total, cancelled: done.cancelled })),
      [{ total: 1, cancelled: 1 }],
    );
    answerHeld(members);
    await waitUntil(() => a.out.length + b.out.length === 2, "the next list's two items are out", 20_000);
    assert.deepEqual(
      sentBy(members)
        .filter((entry) => /^[xyz]#/.test(entry))
        .sort(),
      ["x#1", "y#1"],
    );
    answerHeld(members);
    await waitUntil(() => donesOf(members).length === 3, "three dones: the first list, the cancelled one, the second", 20_000);
  });

  it("pause on one holds every runner; resume on another carries on; a batch that ends paused does not hold the next list", async () => {
    const members = crew(["a", "b"], { parallel: 2 }, { hold: true });
    const [a, b] = members as [Member, Member];
    await a.runner.add(items(6), {});
    await b.runner.add(["next"], {});
    await waitUntil(() => a.out.length + b.out.length === 4, "four items out", 20_000);
    await a.runner.command("pause");
    answerHeld(members);
    // What was out has come back and been counted on both; a runner that ignored the pause would have sent the next items then.
    await waitUntil(() => members.every((member) => member.statuses.at(-1)?.startsWith('status.paused · status.of {"ended":"4","total":"6"}')), "both show paused, 4 of 6", 20_000);
    assert.equal(sentBy(members).length, 4, "nothing went out while paused");
    await b.runner.command("resume");
    await waitUntil(() => a.out.length + b.out.length === 2, "the last two items out after the resume", 20_000);
    await b.runner.command("pause");
    answerHeld(members);
    await waitUntil(() => donesOf(members).length === 1, "the first list ends, paused", 20_000);
    await waitUntil(() => a.out.length + b.out.length === 1, "the next list's item goes out", 20_000);
    answerHeld(members);
    await waitUntil(() => donesOf(members).length === 2, "the next list ends", 20_000);
  });

  it("a user Redis's ACL keeps from the queue's keys is a refusal named NOPERM, and its list is refused, not lost quietly", async () => {
    const admin = new Redis(redis.url);
    try {
      await admin.call("ACL", "SETUSER", "elsewhere", "on", ">elsewhere-pass", "~other:*", "&*", "+@all");
      const work = QueueBatchWork.open({
        url: redis.url,
        username: "elsewhere",
        password: "elsewhere-pass",
        queue: "acl",
        worker: "w",
        workerTimeoutMs: 30_000,
        resend: false,
        onChange: () => undefined,
      });
      try {
        await assert.rejects(work.add({ id: "l1", items: ["a"], origin: {} }), /NOPERM/);
        await waitUntil(() => work.trouble() !== undefined, "the refusal shows", 20_000);
        assert.deepEqual(work.trouble(), { kind: "refused", reason: "NOPERM" });
      } finally {
        await work.close();
      }
    } finally {
      admin.disconnect();
    }
  });

  it("a running batch whose header another program wrote fails naming the header's key, not with a TypeError", async () => {
    const queue = `test-${randomUUID()}`;
    const admin = new Redis(redis.url);
    const work = QueueBatchWork.open({ url: redis.url, queue, worker: "w", workerTimeoutMs: 30_000, resend: false, onChange: () => undefined });
    try {
      const key = `morelogin:${queue}:batch:header:b1`;
      await admin
        .multi()
        .set(`morelogin:${queue}:batch:current`, "b1")
        .hset(key, { meta: JSON.stringify({ id: "b1", items: 3 }), startedAt: "now" })
        .exec();
      await assert.rejects(work.startNext(new Date().toISOString()), (error: Error) => {
        assert.equal(error.message, `the queue's record ${key} cannot be read: its total is not a whole number`);
        return true;
      });
    } finally {
      await work.close();
      admin.disconnect();
    }
  });

  it("a queue whose Redis was never reached says what it waits for, not an error, and goes on when one is there", async () => {
    const later = await startRedis();
    try {
      await later.shutdown();
      const [member] = crew(["a"], { url: later.url }) as [Member];
      const waiting = `status.waitingForRedis ${JSON.stringify({ where: later.url })}`;
      await waitUntil(() => member.statuses.includes(waiting), `the status says it waits for ${later.url}: ${JSON.stringify(member.statuses)}`, 20_000);
      assert.ok(!member.statuses.some((status) => status.startsWith("status.unreachable")), "no 'unreachable' before Redis was ever reached");
      await later.restart();
      await member.runner.add(items(2), {});
      await waitUntil(() => member.sent.length === 2, "the list goes out once Redis is there", 20_000);
      assert.notEqual(member.statuses.at(-1), waiting);
    } finally {
      await later.stop();
    }
  });

  it("a wrong password is a login trouble named by Redis's code, never by the password", async () => {
    const locked = await startRedis({ password: "s3cret-pass" });
    try {
      const work = QueueBatchWork.open({ url: locked.url, password: "not-the-password", queue: "login", worker: "w", workerTimeoutMs: 30_000, resend: false, onChange: () => undefined });
      try {
        await waitUntil(() => work.trouble() !== undefined, "the login refused", 20_000);
        assert.deepEqual(work.trouble(), { kind: "login", reason: "WRONGPASS" });
      } finally {
        await work.close();
      }
    } finally {
      await locked.stop();
    }
  });
});
