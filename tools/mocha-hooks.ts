/**
 * Loaded into every mocha process and worker by tools/mocha.ts (`--require`): every mocha timeout, the
 * group's and each `this.timeout(…)`, stretched by the machine's slowdown factor (tools/test-limits.ts),
 * and the time a test or hook spends waiting for a heavy slot added to its timeout, so that waiting
 * for the machine never fails it. After each test file (in a parallel run; after all of them in a serial
 * one), whatever it started and left running is ended, and named.
 */
import { Context, Runnable } from "mocha";
import { appendFileSync } from "node:fs";
import { cpuSecondsWithChildren } from "./cpu-seconds";
import { relative } from "node:path";
import { endFile, fileSlot, scaled, whileWaitingForSlot } from "./test-limits";

const SCALED = Symbol("timeout scaled");
type Stretchable = Runnable & { [SCALED]?: boolean };

let current: Stretchable | undefined;
let lastBeat = Date.now();

const run = Runnable.prototype.run;
Runnable.prototype.run = function (this: Stretchable, fn) {
  // A suite's timeout (and the command line's) reaches its tests and hooks unscaled: scale it once, here.
  if (!this[SCALED]) {
    this[SCALED] = true;
    this.timeout(scaled(this.timeout()));
  }
  current = this;
  lastBeat = Date.now();
  return run.call(this, fn);
};

// `this.timeout(…)` inside a test or hook sets its own runnable's timeout, after the scaling above.
const contextTimeout = Context.prototype.timeout as (this: Context, ms?: string | number) => number | Context;
Context.prototype.timeout = function (this: Context, ...ms: [] | [string | number]) {
  if (ms.length === 0) return contextTimeout.call(this);
  const [value] = ms;
  return contextTimeout.call(this, typeof value === "number" ? scaled(value) : value);
} as typeof Context.prototype.timeout;

whileWaitingForSlot(() => {
  const now = Date.now();
  const waited = now - lastBeat;
  lastBeat = now;
  const timeout = current?.timeout();
  // 0 is no timeout at all; setting the timeout of a running runnable restarts its timer.
  if (current && timeout) current.timeout(timeout + waited);
});

/** The test files under the root suite: the one file of a parallel worker's run, all of them in a serial one. */
function filesOf(context: Mocha.Context): string[] {
  return [...new Set(context.test?.parent?.suites.map((suite) => suite.file).filter((file): file is string => Boolean(file)))];
}

let giveSlotBack: () => void = () => undefined;
let fileStarted = Date.now();
let cpuAtStart = 0;

/**
 * Mocha's root hooks: `beforeAll` and `afterAll` run once per file in a parallel run, once around all of
 * them in a serial one. With MORELOGIN_TEST_TIMES (tools/test-all.ts), each file's time from its slot to
 * its end is added to that file as a line `<seconds> <start, hh:mm:ss UTC> <CPU-seconds> <file>`: the
 * CPU of the mocha process and of every process it started and has reaped by then (Node-RED, the
 * emulator, Chromium), so a file's Node-REDs and browsers count in it.
 */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    giveSlotBack = await fileSlot(filesOf(this).join(", "));
    fileStarted = Date.now();
    cpuAtStart = cpuSecondsWithChildren();
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    const files = filesOf(this);
    const left = await endFile();
    giveSlotBack();
    if (left.length) process.stderr.write(`[test-limits] ended what ${files.join(", ") || "the tests"} left running: ${left.join("; ")}\n`);
    const times = process.env.MORELOGIN_TEST_TIMES;
    if (!times) return;
    const started = new Date(fileStarted).toISOString().slice(11, 19);
    const cpu = (cpuSecondsWithChildren() - cpuAtStart).toFixed(1);
    appendFileSync(times, `${((Date.now() - fileStarted) / 1000).toFixed(1)} ${started} ${cpu} ${files.map((file) => relative(process.cwd(), file)).join(", ")}\n`);
  },
};
