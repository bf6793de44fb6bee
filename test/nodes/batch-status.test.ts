import assert from "node:assert/strict";
import { statusOf, type BatchProgress } from "../../src/batch/progress";
import { batchSettings } from "../../src/nodes/lib/batch/settings";
import { translator } from "../support/catalog";

const RUNNING: BatchProgress = {
  id: "b",
  total: 5000,
  done: 1231,
  failed: 2,
  timedOut: 1,
  interrupted: 0,
  cancelled: 0,
  running: 5,
  waiting: 3761,
  startedAt: "2026-11-25T00:00:00.000Z",
  endedAt: null,
  etaMs: (2 * 60 + 10) * 60_000,
  perMinute: 29,
  pacedPerMinute: null,
  failures: [],
};

describe("nodes: morelogin-batch status text", () => {
  it("reads '1,234 of 5,000 · 3 failed · ETA 2 h 10 min' in English and the same in Chinese", () => {
    assert.deepEqual(statusOf(RUNNING, false, translator("en-US")), { fill: "blue", shape: "dot", text: "1,234 of 5,000 · 3 failed · ETA 2 h 10 min" });
    assert.deepEqual(statusOf(RUNNING, false, translator("zh-CN")), { fill: "blue", shape: "dot", text: "已完成 1,234 / 5,000 · 3 个失败 · 预计剩余 2 小时 10 分钟" });
    assert.deepEqual(statusOf({ ...RUNNING, etaMs: 45_000 }, false, translator("en-US")).text, "1,234 of 5,000 · 3 failed · ETA 45 s");
    assert.deepEqual(statusOf({ ...RUNNING, failed: 0, timedOut: 0, done: 1234, etaMs: 12 * 60_000 }, false, translator("zh-CN")).text, "已完成 1,234 / 5,000 · 预计剩余 12 分钟");
    assert.deepEqual(statusOf(RUNNING, true, translator("en-US")), { fill: "yellow", shape: "dot", text: "paused · 1,234 of 5,000 · 3 failed" });
    const paced = { ...RUNNING, perMinute: 94, pacedPerMinute: 60, etaMs: 7 * 60_000 };
    assert.deepEqual(statusOf(paced, false, translator("en-US")), { fill: "blue", shape: "dot", text: "1,234 of 5,000 · 3 failed · paced: 60 a minute · ETA 7 min" });
    assert.deepEqual(statusOf(paced, false, translator("zh-CN")).text, "已完成 1,234 / 5,000 · 3 个失败 · 限速：每分钟 60 项 · 预计剩余 7 分钟");
    const ended = { ...RUNNING, done: 4997, running: 0, waiting: 0, etaMs: 0, endedAt: "2026-11-25T03:00:00.000Z" };
    assert.deepEqual(statusOf(ended, false, translator("en-US")), { fill: "red", shape: "ring", text: "5,000 of 5,000 · 3 failed" });
    assert.deepEqual(statusOf({ ...ended, done: 5000, failed: 0, timedOut: 0 }, false, translator("zh-CN")), { fill: "green", shape: "dot", text: "已完成 5,000 / 5,000" });
  });

  it("ends green only when every item was done: interrupted items or items worked twice end yellow, failed ones red", () => {
    const ended = { ...RUNNING, done: 4996, failed: 0, timedOut: 0, interrupted: 4, running: 0, waiting: 0, etaMs: 0, endedAt: "2026-11-25T03:00:00.000Z" };
    assert.deepEqual(statusOf(ended, false, translator("en-US")), { fill: "yellow", shape: "ring", text: "5,000 of 5,000 · 4 interrupted" });
    assert.deepEqual(statusOf(ended, false, translator("zh-CN")), { fill: "yellow", shape: "ring", text: "已完成 5,000 / 5,000 · 4 个中断" });
    assert.deepEqual(statusOf({ ...ended, failed: 1, done: 4995 }, false, translator("en-US")), { fill: "red", shape: "ring", text: "5,000 of 5,000 · 1 failed · 4 interrupted" });
    const twice = { ...ended, done: 5000, interrupted: 0, workedTwice: [{ id: "p1", attempt: 2, from: "a:1880", to: "b:1880" }] };
    assert.deepEqual(statusOf(twice, false, translator("en-US")), { fill: "yellow", shape: "ring", text: "5,000 of 5,000 · 1 worked twice" });
    assert.deepEqual(statusOf(twice, false, translator("zh-CN")).text, "已完成 5,000 / 5,000 · 1 个执行了两次");
    assert.deepEqual(statusOf({ ...RUNNING, interrupted: 2 }, false, translator("en-US")).text, "1,236 of 5,000 · 3 failed · 2 interrupted · ETA 2 h 10 min");
  });

  it("says what an example on a queue needs while no Redis was ever reached, in English and in Chinese", () => {
    assert.equal(translator("en-US")("morelogin-batch.status.waitingForRedis", { where: "redis://127.0.0.1:6379/0" }), "waiting for a Redis at redis://127.0.0.1:6379/0: start redis-server");
    assert.equal(translator("zh-CN")("morelogin-batch.status.waitingForRedis", { where: "redis://127.0.0.1:6379/0" }), "等待 Redis（redis://127.0.0.1:6379/0）：请启动 redis-server");
  });

  it("says why a command did nothing, in English and in Chinese", () => {
    const en = translator("en-US");
    const zh = translator("zh-CN");
    assert.equal(en("morelogin-batch.note.nothingRunning", { command: "pause" }), "no batch is running or waiting: nothing to pause");
    assert.equal(zh("morelogin-batch.note.nothingRunning", { command: "pause" }), "没有正在运行或等待的批量：无法执行 pause");
    assert.equal(en("morelogin-batch.note.noSuchBatch", { id: "b7" }), "no batch b7 is running or waiting");
    assert.equal(zh("morelogin-batch.note.noBatchYet"), "本节点还没有运行过批量");
    assert.equal(en("morelogin-batch.note.notPaused"), "the batch is not paused: nothing to resume");
    assert.equal(zh("morelogin-batch.status.journal"), "日志无法读取");
  });

  it("with a queue, counts the workers; says when Redis is unreachable or refused the login, in English and in Chinese", () => {
    const workers = [
      { name: "a:1880", running: 2, done: 600, failed: 1 },
      { name: "b:1880", running: 3, done: 631, failed: 2 },
    ];
    assert.deepEqual(statusOf({ ...RUNNING, workers }, false, translator("en-US")).text, "1,234 of 5,000 · 3 failed · 2 workers · ETA 2 h 10 min");
    assert.deepEqual(statusOf({ ...RUNNING, workers }, false, translator("zh-CN")).text, "已完成 1,234 / 5,000 · 3 个失败 · 2 个工作节点 · 预计剩余 2 小时 10 分钟");
    const oneGone = [workers[0], { ...workers[1], gone: true }] as typeof workers;
    assert.deepEqual(
      statusOf({ ...RUNNING, workers: oneGone }, false, translator("en-US")).text,
      "1,234 of 5,000 · 3 failed · 1 worker · ETA 2 h 10 min",
      "a Node-RED gone for the worker timeout is not counted",
    );
    assert.equal(translator("en-US")("morelogin-batch.status.unreachable", { reason: "ECONNREFUSED" }), "Redis unreachable: ECONNREFUSED");
    assert.equal(translator("zh-CN")("morelogin-batch.status.login"), "Redis 拒绝登录");
  });

  it("names a wrong setting and its value, in English and in Chinese", () => {
    const problem = batchSettings({ parallel: "0" });
    assert.ok("key" in problem);
    assert.equal(translator("en-US")(`morelogin-batch.error.setting.${problem.key}`, problem.values), 'parallel must be a whole number from 1 to 10000, not "0"');
    assert.equal(translator("zh-CN")(`morelogin-batch.error.setting.${problem.key}`, problem.values), '并发数必须是 1 到 10000 之间的整数，而不是 "0"');
    const timeout = batchSettings({ itemTimeout: "-1" });
    assert.ok("key" in timeout);
    assert.equal(translator("en-US")(`morelogin-batch.error.setting.${timeout.key}`, timeout.values), 'itemTimeout must be a number of seconds from 0 (none) to 2073600 (24 days), not "-1"');
  });
});
