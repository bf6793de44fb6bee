import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NodeMessage } from "node-red";
import { call, dataOf } from "../support/http";
import { useChromiumProfiles } from "../support/browser-suite";
import { resetBrowser } from "../support/chromium";
import type { CookieFields } from "../../src/browser/cookie-list";
import type { Emulator } from "../../src/emulator";
import { EXAMPLE_CONFIG_ID, loadExamples } from "../../tools/sandbox";
import { Collector, catchNode, credentialsFor, CONFIG_ID, helper, NODE_MODULES, stateDir, TAB, type FlowNode, type Msg } from "../support/node-red";
import { waitUntil, OUTCOME_MS } from "../support/wait-until";
import { infoOf } from "../support/outcome";
import { PEOPLE, serveStepsPage, type Seen } from "../support/steps-page";

/** Node-RED's own nodes an example uses, from the Node-RED under test. */
const coreNodes = ["common/20-inject.js", "common/90-comment.js", "function/15-change.js", "parsers/70-CSV.js", "storage/10-file.js"].map(
  (file) => require(require.resolve(`@node-red/nodes/core/${file}`, { paths: [require.resolve("node-red/package.json")] })) as unknown,
);

/** A browser node of a chain: its action and fields, as a saved flow has them. */
type Step = Record<string, unknown> & { action: string };

interface Profile {
  envId: string;
  webSocketDebuggerUrl: string;
}

interface Outcome {
  out: Msg[];
  errors: Array<{ node: string; text: string; kind?: string }>;
}

const TEXT_FIELDS = ["url", "selector", "text", "expression", "endpoint", "attributes", "option", "key", "file", "cookieDomain"];

/** The fields of a step as TypedInputs, as the editor saves them (scrollBy is a number field). */
function browserNode(id: string, step: Step, next: string): FlowNode {
  const node: FlowNode = { id, type: "morelogin-browser", z: TAB, wires: [[next]], ...step };
  for (const name of TEXT_FIELDS) if (typeof step[name] === "string" && step[`${name}Type`] === undefined) node[`${name}Type`] = "str";
  if (step.scrollBy !== undefined && step.scrollByType === undefined) node.scrollByType = "num";
  return node;
}

/** The page's record of what it saw (see test/support/steps-page.ts). */
const SEEN: Step = { action: "evaluate", expression: "window.seen" };

/** Waits in the page until the page stops scrolling (the wheel scrolls smoothly), then notes where it is. */
const noteScroll = (name: string): Step => ({
  action: "evaluate",
  expression: `await new Promise((resolve) => { let last = -1; const timer = setInterval(() => { if (scrollY === last) { clearInterval(timer); resolve(); } last = scrollY; }, 150); });
window.${name} = { y: scrollY, wheels: seen.wheels }; return window.${name};`,
});

/** The gaps between successive keydowns, in ms. */
/** The keys typed (fill's clearing sends a Delete first). */
const typed = (keys: Seen["keys"]): Seen["keys"] => keys.filter((key) => key.key.length === 1);
const gapsOf = (keys: Seen["keys"]): number[] => keys.slice(1).map((key, index) => key.t - (keys[index] as { t: number }).t);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The farthest a path's points get from the straight line between its ends, in px. */
function deviation(points: Array<{ x: number; y: number }>): number {
  const start = points[0];
  const end = points.at(-1);
  if (!start || !end) return 0;
  const length = Math.hypot(end.x - start.x, end.y - start.y) || 1;
  return Math.max(...points.map((point) => Math.abs((end.x - start.x) * (point.y - start.y) - (end.y - start.y) * (point.x - start.x)) / length));
}

/** The moves from the pointer leaving #corner (10..50 px) to the click: the way to the button. */
function wayTo(seen: Seen, click: Seen["clicks"][number]): Array<{ x: number; y: number }> {
  const before = seen.moves.slice(0, click.movesBefore);
  let from = before.length - 1;
  while (from > 0 && !((before[from]?.x ?? 0) <= 50 && (before[from]?.y ?? 0) <= 50)) from--;
  return before.slice(from);
}

/** Starts a profile as the desktop client would (not through a node). */
async function startOutside(emulator: Emulator, envId: string): Promise<Profile> {
  const { debugPort } = dataOf<{ debugPort: string }>(await call(emulator.localUrl, "/api/env/start", { body: { envId } }));
  const version = (await (await fetch(`http://127.0.0.1:${debugPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  return { envId, webSocketDebuggerUrl: version.webSocketDebuggerUrl };
}

interface Setting {
  url: string;
  one: Profile;
  two: Profile;
  /** The suite's own temporary folder. */
  folder: string;
}

/**
 * The test page, two started profiles and a temporary folder, for the whole suite; after each test
 * the profiles' browsers are put back as their start left them (one blank tab, no cookies).
 */
function useSetting(emulator: () => Emulator): () => Setting {
  let page: Awaited<ReturnType<typeof serveStepsPage>> | undefined;
  let setting: Setting | undefined;
  before(async () => {
    page = await serveStepsPage();
    const folder = await mkdtemp(join(tmpdir(), "morelogin-steps-"));
    const [first, second] = emulator().data.profiles.map((profile) => profile.id);
    setting = { url: page.url, folder, one: await startOutside(emulator(), first as string), two: await startOutside(emulator(), second as string) };
  });
  afterEach(async () => {
    if (!setting) return;
    const ours = [setting.one.envId, setting.two.envId];
    for (const profile of emulator().running()) if (ours.includes(profile.envId)) await resetBrowser(profile.debugPort);
  });
  after(async () => {
    await page?.close();
    // Skipped (no emulator was started) or its set-up failed: the emulator's own hook closes what it started.
    if (!setting) return;
    await rm(setting.folder, { recursive: true, force: true });
    for (const profile of emulator().running()) await call(emulator().localUrl, "/api/env/close", { body: { envId: profile.envId } });
  });
  return () => {
    assert.ok(setting, "the suite's page and profiles are ready");
    return setting;
  };
}

describe("nodes: browser, human pace and the actions extract, select, press, hover, scroll, upload and setCookies", function () {
  this.timeout(OUTCOME_MS * 2);
  // The suite starts the first two profiles; example 17 starts its own, the emulator's Profile 007.
  const emulator = useChromiumProfiles(7);
  const setting = useSetting(emulator);
  const one = (): Profile => setting().one;
  const two = (): Profile => setting().two;
  const folder = (): string => setting().folder;

  const open = (): Step => ({ action: "open", url: setting().url });

  /** Loads a flow of independent chains (first node of each gets one message), sends them and collects every outcome. */
  async function runChains(chains: Array<{ steps: Step[]; input: Record<string, unknown> }>): Promise<Outcome[]> {
    const flow: FlowNode[] = [{ id: TAB, type: "tab", label: "steps" }];
    for (const [c, chain] of chains.entries()) {
      for (const [index, step] of chain.steps.entries()) flow.push(browserNode(`c${c}s${index}`, step, index + 1 < chain.steps.length ? `c${c}s${index + 1}` : `out${c}`));
      flow.push({ id: `out${c}`, type: "helper", z: TAB });
    }
    flow.push({ id: "catch1", type: "catch", z: TAB, scope: null, uncaught: false, wires: [["caught"]] }, { id: "caught", type: "helper", z: TAB });
    await helper.unload();
    await helper.load([...NODE_MODULES, catchNode] as never, flow as never);
    const outs = chains.map((_, c) => new Collector(`out${c}`));
    const caught = new Collector("caught");
    for (const [c, chain] of chains.entries()) helper.getNode(`c${c}s0`).receive(chain.input as NodeMessage);
    await waitUntil(() => outs.reduce((sum, out) => sum + out.messages.length, 0) + caught.messages.length >= chains.length, "every chain's message came out or was caught");
    return chains.map((_, c) => ({
      out: outs[c]?.messages as Msg[],
      errors: (caught.messages as Msg[])
        .map((msg) => ({ msg, error: msg.error as { message: string; source: { id: string } } }))
        .filter(({ error }) => error.source.id.startsWith(`c${c}s`))
        .map(({ msg, error }) => ({ node: error.source.id, text: error.message, kind: infoOf(msg).error?.kind })),
    }));
  }

  /** Runs one chain on a profile's browser (named by msg.morelogin.profile, so msg.payload is free) and replies its one message. */
  async function passes(steps: Step[], fields: Record<string, unknown> = {}, profile: Profile = one(), tab?: unknown): Promise<Msg> {
    const [outcome] = await runChains([{ steps, input: { ...fields, morelogin: tab ? { profile, page: tab } : { profile } } }]);
    assert.deepEqual(outcome?.errors, [], "no node failed");
    assert.equal(outcome?.out.length, 1, "one message out");
    return outcome?.out[0] as Msg;
  }

  describe("human", () => {
    it("off: a click jumps to the element's centre in one move and keys go straight into the field, as before", async () => {
      const msg = await passes([
        open(),
        { action: "type", selector: "#name", text: "quick" },
        { action: "click", selector: "#go" },
        { action: "hover", selector: "#menu" },
        { action: "waitFor", selector: "#items", timeout: "5" },
        SEEN,
      ]);
      const seen = msg.payload as Seen;
      const [click] = seen.clicks.filter((entry) => entry.id === "go");
      assert.ok(click, "the button was clicked");
      assert.ok(click.movesBefore <= 2, `${click.movesBefore} moves before the click`);
      assert.ok(Math.abs(click.x - click.width / 2) <= 1 && Math.abs(click.y - click.height / 2) <= 1, `the click landed at its centre: ${JSON.stringify(click)}`);
      assert.equal(
        typed(seen.keys)
          .map((key) => key.key)
          .join(""),
        "quick",
      );
      // Typed as before: straight into the focused field, with no mouse path to it first. How fast is the
      // bench's business (browser_vs_direct), not a wall-clock race in a test.
      const firstKey = typed(seen.keys)[0];
      assert.ok(firstKey);
      // The pointer starts at (0, 0); the headless shell reports a move there as a page loads, which goes nowhere.
      const wentSomewhere = seen.moves.filter((move, index) => {
        const from = seen.moves[index - 1] ?? { x: 0, y: 0 };
        return move.x !== from.x || move.y !== from.y;
      });
      assert.equal(wentSomewhere.filter((move) => move.t < firstKey.t).length, 0, "no mouse move before the typing");
    });

    it("on: clicks come along curved paths of many moves to points off the centre; keys come a person's distance apart in an uneven rhythm; hover and type work", async () => {
      const human = { human: true };
      const toButton: Step[] = [
        { action: "hover", selector: "#corner", ...human },
        { action: "click", selector: "#go", ...human },
      ];
      const msg = await passes([
        open(),
        ...toButton,
        ...toButton,
        { action: "hover", selector: "#menu", ...human },
        { action: "waitFor", selector: "#items", timeout: "5" },
        { action: "type", selector: "#name", text: "hello, dear web page", ...human },
        SEEN,
      ]);
      const seen = msg.payload as Seen;
      const clicks = seen.clicks.filter((entry) => entry.id === "go");
      assert.equal(clicks.length, 2);
      for (const click of clicks) {
        const way = wayTo(seen, click);
        assert.ok(way.length >= 5, `the pointer took ${way.length} moves to the button`);
        assert.ok(deviation(way) >= 3, `the way bends away from a straight line by ${deviation(way).toFixed(1)} px`);
        assert.ok(click.x >= 0 && click.x <= click.width && click.y >= 0 && click.y <= click.height, "inside the button");
      }
      const offCentre = clicks.map((click) => Math.hypot(click.x - click.width / 2, click.y - click.height / 2));
      assert.ok(
        // A click aimed at the very centre lands within 3 px of it (the button's border).
        offCentre.some((distance) => distance > 5),
        `not always the centre: ${offCentre.map((distance) => distance.toFixed(1)).join(", ")} px from it`,
      );
      assert.equal(new Set(clicks.map((click) => `${click.x},${click.y}`)).size, 2, "two different points");

      assert.equal(
        typed(seen.keys)
          .map((key) => key.key)
          .join(""),
        "hello, dear web page",
      );
      const gaps = gapsOf(typed(seen.keys));
      assert.ok(Math.min(...gaps) >= 45, `keys at least a person's distance apart: ${gaps.map(Math.round).join(", ")} ms`);
      // A fixed rhythm puts nearly every gap near the median (only the machine's stalls stray); 50–250 ms at random puts most of them far from it.
      const strays = gaps.filter((gap) => Math.abs(gap - median(gaps)) > 30).length;
      assert.ok(strays >= 5, `never a constant rhythm: ${strays} of ${gaps.length} gaps are more than 30 ms off their median (${gaps.map(Math.round).join(", ")} ms)`);
      // A character no key gives is inserted as text, in the same rhythm.
      const chinese = await passes([open(), { action: "type", selector: "#name", text: "中文 ok", ...human }, { action: "evaluate", expression: "document.querySelector('#name').value" }]);
      assert.equal(chinese.payload, "中文 ok");
    });
  });

  describe("the new actions", () => {
    it("scroll: by pixels at once, by pixels in several wheel steps with human, and to an element", async () => {
      const msg = await passes([
        open(),
        { action: "scroll", scrollBy: "1500" },
        noteScroll("plain"),
        { action: "scroll", scrollBy: "600", human: true },
        noteScroll("wheeled"),
        { action: "scroll", selector: "#bottom", human: true },
        noteScroll("wheeledTo"),
        { action: "scroll", scrollBy: "-100000" },
        { action: "scroll", selector: "#bottom" },
        {
          action: "evaluate",
          expression:
            "const box = document.querySelector('#bottom').getBoundingClientRect(); return { plain, wheeled, wheeledTo, inView: box.top >= 0 && box.bottom <= innerHeight, wheels: seen.wheels }",
        },
      ]);
      const { plain, wheeled, wheeledTo, inView, wheels } = msg.payload as Record<string, { y: number; wheels: number }> & { inView: boolean; wheels: number };
      assert.deepEqual(plain, { y: 1500, wheels: 0 }, "without human: exactly 1,500 px, no wheel event");
      assert.ok(Math.abs((wheeled?.y ?? 0) - 2100) <= 5, `with human: 600 px further, at ${wheeled?.y}`);
      assert.ok((wheeled?.wheels ?? 0) >= 3, `in ${wheeled?.wheels} wheel steps`);
      assert.ok((wheeledTo?.wheels ?? 0) > (wheeled?.wheels ?? 0), "to an element with the wheel too");
      assert.equal(inView, true, "without human, scrolled to #bottom");
      assert.equal(wheels, wheeledTo?.wheels, "without human no wheel event");
    });

    it("extract: every matching element's visible text and the attributes asked for; none matching is an empty list", async () => {
      const rows = await passes([open(), { action: "extract", selector: "#people tbody tr", attributes: "data-id, title" }]);
      assert.deepEqual(
        rows.payload,
        PEOPLE.map((person) => ({ text: `${person.name}\t${person.age}`, "data-id": person.id, title: null })),
      );
      const none = await passes([open(), { action: "extract", selector: ".nothing-has-this-class" }]);
      assert.deepEqual(none.payload, []);
    });

    it("select (by value or label), press (on an element or the page) and the options a select does not have", async () => {
      const msg = await passes([
        open(),
        { action: "select", selector: "#color", option: "g" },
        { action: "evaluate", expression: "window.byValue = document.querySelector('#color').value" },
        { action: "select", selector: "#color", option: "Blue" },
        { action: "type", selector: "#name", text: "Ada" },
        { action: "press", key: "Tab" },
        { action: "evaluate", expression: "window.focused = document.activeElement.id" },
        // On the field, though the focus has moved on: Enter there submits its form.
        { action: "press", selector: "#name", key: "Enter" },
        { action: "evaluate", expression: "({ byValue, byLabel: document.querySelector('#color').value, focused, submitted: seen.submitted })" },
      ]);
      assert.deepEqual(msg.payload, { byValue: "g", byLabel: "b", focused: "color", submitted: "Ada" });
      const [missing] = await runChains([{ steps: [open(), { action: "select", selector: "#color", option: "purple" }], input: { morelogin: { profile: one() } } }]);
      assert.deepEqual(missing?.errors, [{ node: "c0s1", kind: "page", text: 'browser failed: "#color" has no option "purple" (by value or label); it has "r" (Red), "g" (Green), "b" (Blue)' }]);
    });

    it("upload: msg.payload as a Buffer named by msg.filename, or a file path", async () => {
      const fileSeen: Step = { action: "evaluate", expression: "return await window.nextFile" };
      // As after a read file node: msg.payload the file, msg.morelogin.page the tab an open step used.
      const tab = infoOf(await passes([open()])).page;
      const fromMsg = await passes([{ action: "upload", selector: "#file" }, fileSeen], { payload: Buffer.from("hello from a flow"), filename: "C:\\reports\\notes.txt" }, one(), tab);
      assert.deepEqual(fromMsg.payload, { name: "notes.txt", type: "text/plain", text: "hello from a flow" });
      const path = join(folder(), "data.csv");
      await writeFile(path, "name,age\nAda,36\n");
      const fromPath = await passes([open(), { action: "upload", selector: "#file", file: path }, fileSeen]);
      assert.deepEqual(fromPath.payload, { name: "data.csv", type: "text/csv", text: "name,age\nAda,36\n" });
    });

    it("upload: a relative path starts in settings.js fileWorkingDirectory; with morelogin.uploadFolders set, a path outside them is refused", async () => {
      const fileSeen: Step = { action: "evaluate", expression: "return await window.nextFile" };
      const allowed = join(folder(), "allowed");
      await mkdir(allowed, { recursive: true });
      await writeFile(join(allowed, "in.txt"), "inside");
      const outside = join(folder(), "secret.txt");
      await writeFile(outside, "outside");
      await rm(join(allowed, "link.txt"), { force: true });
      await symlink(outside, join(allowed, "link.txt"));
      // settings.js entries the helper's settings type does not list.
      const settings: Record<string, unknown> = { fileWorkingDirectory: allowed, morelogin: { stateDir, uploadFolders: [allowed] } };
      helper.settings(settings as Parameters<typeof helper.settings>[0]);
      try {
        const fromRelative = await passes([open(), { action: "upload", selector: "#file", file: "in.txt" }, fileSeen]);
        assert.deepEqual(fromRelative.payload, { name: "in.txt", type: "text/plain", text: "inside" });
        // Up and out, an absolute path elsewhere, and a link inside the folder that leads out of it.
        const refused = ["../secret.txt", outside, "link.txt"];
        const outcomes = await runChains(refused.map((file) => ({ steps: [{ action: "upload", selector: "#file", file }], input: { morelogin: { profile: one() } } })));
        outcomes.forEach((outcome, index) => {
          const text = `browser failed: file ${JSON.stringify(refused[index])} is outside the folders upload may read (settings.js morelogin.uploadFolders)`;
          assert.deepEqual(outcome.errors, [{ node: `c${index}s0`, kind: "input", text }], refused[index]);
        });
      } finally {
        helper.settings({ morelogin: { stateDir } } as Parameters<typeof helper.settings>[0]);
      }
    });

    it("setCookies: the cookies one profile's read cookies gave go into another profile", async () => {
      const read = await passes([open(), { action: "evaluate", expression: "document.cookie = 'visited=yes; path=/'; return 1" }, { action: "cookies", url: setting().url }]);
      const session = { name: "session", value: "s3cret", domain: "127.0.0.1", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" };
      const moved = await passes([{ action: "setCookies" }, { action: "cookies", url: setting().url }], { payload: [...(read.payload as object[]), session] }, two());
      const cookies = (moved.payload as Array<{ name: string; value: string; httpOnly: boolean }>)
        .map(({ name, value, httpOnly }) => ({ name, value, httpOnly }))
        .sort((a, b) => a.name.localeCompare(b.name));
      assert.deepEqual(cookies, [
        { name: "session", value: "s3cret", httpOnly: true },
        { name: "visited", value: "yes", httpOnly: false },
      ]);
    });
  });

  describe("cookies in every format users have (issue 50)", () => {
    const SECRET = "s3cret-login";
    /** Chromium caps a cookie's life at 400 days: a week ahead comes back as it went in. */
    const IN_A_WEEK = Math.floor(Date.now() / 1000) + 7 * 24 * 3600;
    /** A cookie as read cookies gives it: every field, sameSite included. */
    type ReadCookie = CookieFields & { sameSite: string };
    /** A login cookie of example.com and its subdomains and a session cookie of one host and path, named for the format that sets them. */
    const expected = (tag: string, sameSites: [string, string] = ["Lax", "Lax"]): ReadCookie[] => [
      { name: `lang_${tag}`, value: "en", domain: "example.com", path: "/docs", expires: -1, httpOnly: false, secure: false, sameSite: sameSites[1] },
      { name: `sid_${tag}`, value: SECRET, domain: ".example.com", path: "/", expires: IN_A_WEEK, httpOnly: true, secure: true, sameSite: sameSites[0] },
    ];
    const netscape = (tag: string): string =>
      ["# Netscape HTTP Cookie File", "", `#HttpOnly_.example.com\tTRUE\t/\tTRUE\t${IN_A_WEEK}\tsid_${tag}\t${SECRET}`, "# a comment", `example.com\tFALSE\t/docs\tFALSE\t0\tlang_${tag}\ten`, ""].join(
        "\r\n",
      );
    const extension = (tag: string): object[] => [
      {
        domain: ".example.com",
        expirationDate: IN_A_WEEK + 0.25,
        hostOnly: false,
        httpOnly: true,
        name: `sid_${tag}`,
        path: "/",
        sameSite: "no_restriction",
        secure: true,
        session: false,
        storeId: "0",
        value: SECRET,
        id: 1,
      },
      { domain: "example.com", hostOnly: true, httpOnly: false, name: `lang_${tag}`, path: "/docs", sameSite: "unspecified", secure: false, session: true, storeId: "0", value: "en", id: 2 },
    ];
    /** As read cookies gives them, the session cookie without a sameSite (the browser's default). */
    const playwright = (tag: string): object[] => [
      { name: `sid_${tag}`, value: SECRET, domain: ".example.com", path: "/", expires: IN_A_WEEK, httpOnly: true, secure: true, sameSite: "Strict" },
      { name: `lang_${tag}`, value: "en", domain: "example.com", path: "/docs", expires: -1, httpOnly: false, secure: false },
    ];

    /** The profile's cookies whose names end in one of the tags, sorted by name, the expiry in whole seconds. */
    const ofTags = (payload: unknown, ...tags: string[]): ReadCookie[] =>
      (payload as ReadCookie[])
        .filter((cookie) => tags.some((tag) => cookie.name.endsWith(`_${tag}`)))
        .map(({ name, value, domain, path, expires, httpOnly, secure, sameSite }) => ({ name, value, domain, path, expires: Math.trunc(expires), httpOnly, secure, sameSite }))
        .sort((a, b) => a.name.localeCompare(b.name));

    it("setCookies takes each format from msg.payload, and cookies reads the same cookies back", async () => {
      const formats: Array<[string, Step, Record<string, unknown>, ReadCookie[]]> = [
        ["array", { action: "setCookies" }, { payload: playwright("array") }, expected("array", ["Strict", "Lax"])],
        ["json", { action: "setCookies" }, { payload: JSON.stringify(playwright("json")) }, expected("json", ["Strict", "Lax"])],
        ["extension", { action: "setCookies" }, { payload: extension("extension") }, expected("extension", ["None", "Lax"])],
        ["storage", { action: "setCookies" }, { payload: { cookies: playwright("storage"), origins: [] } }, expected("storage", ["Strict", "Lax"])],
        ["netscape", { action: "setCookies" }, { payload: netscape("netscape") }, expected("netscape")],
        ["file", { action: "setCookies" }, { payload: Buffer.from(netscape("file")) }, expected("file")],
        [
          "header",
          { action: "setCookies", cookieDomain: "site", cookieDomainType: "msg" },
          { payload: `Cookie: sid_header=${SECRET}; lang_header=en`, site: "example.com" },
          expected("header").map((cookie) => ({ ...cookie, domain: "example.com", path: "/", expires: -1, httpOnly: false, secure: false })),
        ],
      ];
      for (const [tag, step, fields, cookies] of formats) {
        const read = await passes([step, { action: "cookies" }], fields, two());
        assert.deepEqual(ofTags(read.payload, tag), cookies, tag);
      }
    });

    it("cookies with Format netscape gives the text of a cookie file, which setCookies puts back as it was", async () => {
      await passes([{ action: "setCookies" }], { payload: extension("round") }, one());
      const json = await passes([{ action: "cookies" }], {}, one());
      const text = await passes([{ action: "cookies", cookieFormat: "netscape" }], {}, one());
      assert.equal(typeof text.payload, "string");
      assert.match(text.payload as string, /^# Netscape HTTP Cookie File\n/);
      assert.ok((text.payload as string).includes(`#HttpOnly_.example.com\tTRUE\t/\tTRUE\t${IN_A_WEEK}\tsid_round\t${SECRET}\n`), "the httpOnly cookie's line");
      const back = await passes([{ action: "setCookies" }, { action: "cookies" }], { payload: text.payload }, two());
      // A cookie file has no sameSite column: the cookie put back gets the browser's default.
      const withoutSameSite = (cookies: ReadCookie[]) => cookies.map(({ sameSite: _sameSite, ...cookie }) => cookie);
      assert.deepEqual(withoutSameSite(ofTags(back.payload, "round")), withoutSameSite(ofTags(json.payload, "round")));
      assert.deepEqual(ofTags(json.payload, "round"), expected("round", ["None", "Lax"]));
    });

    it("a malformed line or entry sets nothing at all, and the error names its line or index, never a value", async () => {
      const badFile = netscape("badfile").replace("\tFALSE\t0\t", "\tmaybe\t0\t");
      const badList = [...playwright("badlist"), { name: "third_badlist", value: 7, domain: "example.com" }];
      const outcomes = await runChains([
        { steps: [{ action: "setCookies" }], input: { payload: badFile, morelogin: { profile: two() } } },
        { steps: [{ action: "setCookies" }], input: { payload: badList, morelogin: { profile: two() } } },
        { steps: [{ action: "setCookies" }], input: { payload: `sid_badheader=${SECRET}`, morelogin: { profile: two() } } },
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.errors),
        [
          [{ node: "c0s0", kind: "input", text: "browser failed: line 5 of msg.payload (a Netscape cookie file): its fourth field (secure) must be TRUE or FALSE" }],
          [{ node: "c1s0", kind: "input", text: "browser failed: msg.payload[2].value must be a string, got a number" }],
          [
            {
              node: "c2s0",
              kind: "input",
              text: "browser failed: msg.payload is a name=value; … header, which says nothing of the site it is for: set the node's Cookie domain (e.g. example.com)",
            },
          ],
        ],
      );
      const read = await passes([{ action: "cookies" }], {}, two());
      assert.deepEqual(ofTags(read.payload, "badfile", "badlist", "badheader"), [], "none of their cookies was set");
    });
  });

  describe("example 17, Read a table into a flow", () => {
    it("reads the price list's rows of its own profile into named columns and writes them as CSV, and closes that profile", async () => {
      const examples = loadExamples({ localUrl: emulator().localUrl, openUrl: emulator().openUrl });
      const nodes = [...examples.byExample.entries()].find(([name]) => name.startsWith("17 "))?.[1];
      assert.ok(nodes, "example 17 exists");
      const csvFile = join(folder(), "price-list.csv");
      const byName = (name: string): FlowNode => nodes.find((node) => node.name === name) as FlowNode;
      // Its Debug nodes become helpers the test listens to, its file goes to the suite's folder.
      const flow = nodes.map((node) => {
        if (node.type === "debug") return { id: node.id, type: "helper", z: TAB };
        const copy = { ...node, z: TAB, ...(node.type === "file" ? { filename: csvFile } : {}) };
        return node.server === EXAMPLE_CONFIG_ID ? { ...copy, server: CONFIG_ID } : copy;
      });
      const config = examples.flows.find((node) => node.id === EXAMPLE_CONFIG_ID) as FlowNode;
      await helper.unload();
      await helper.load(
        [...NODE_MODULES, catchNode, ...coreNodes] as never,
        [{ id: TAB, type: "tab", label: "17" }, { ...config, id: CONFIG_ID, localRpm: "0", openRpm: "0" }, ...flow] as never,
        credentialsFor(emulator()) as never,
      );
      const rows = new Collector(byName("rows").id);
      const saved = new Collector(byName("saved").id);
      const failed = new Collector(byName("error").id);
      const list = nodes.find((node) => node.type === "morelogin-list-profiles");
      assert.ok(list, "example 17 lists its profile");
      const own = emulator().data.profiles.find((profile) => profile.envName === list.envName);
      assert.ok(own, `example 17's profile, ${String(list.envName)}, is one of the emulator's`);
      helper.getNode(list.id).receive({ payload: "" } as NodeMessage);
      await waitUntil(() => saved.messages.length + failed.messages.length > 0, "the file was saved, or a step failed");
      assert.deepEqual(failed.messages, []);
      const products = rows.messages[0]?.payload as Array<Record<string, unknown>>;
      assert.equal(products.length, 8);
      assert.deepEqual(products[0], { sku: "A-100", product: "Desk lamp", price: 24.9, inStock: 12 });
      const csv = (await readFile(csvFile, "utf8")).trim().split("\n");
      assert.deepEqual(csv.slice(0, 2), ["sku,product,price,inStock", "A-100,Desk lamp,24.9,12"]);
      assert.equal(csv.length, 9, "a header and 8 rows");
      assert.deepEqual(
        emulator()
          .requestLog.filter((request) => request.path === "/api/env/start" || request.path === "/api/env/close")
          .map((request) => [request.path, (request.body as { envId?: string }).envId])
          .filter(([, envId]) => envId === own.id),
        [
          ["/api/env/start", own.id],
          ["/api/env/close", own.id],
        ],
        "it started its own profile, and closed it",
      );
    });
  });

  it("bad input fails the message with kind input before the browser is looked for, and never shows a cookie's value", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // Nothing answers here: a check made after looking for the browser would fail as network instead.
    const nowhere = { morelogin: { profile: { envId: "1", webSocketDebuggerUrl: `ws://127.0.0.1:${port}/devtools/browser/none` } } };
    const cases: Array<[Step, Record<string, unknown>, string]> = [
      [{ action: "extract" }, {}, "selector is missing: give a CSS selector (e.g. #login), or text=…, got nothing"],
      [{ action: "extract", selector: "a", attributes: "href, text" }, {}, "attributes: text is already each element's visible text; name the attributes to read besides it"],
      [{ action: "select", selector: "#color" }, {}, "option is missing: give the value or the label of the option to choose, got nothing"],
      [{ action: "press" }, {}, "key is missing: give a key such as Enter, Tab or ArrowDown, or a chord such as Control+A, got nothing"],
      [{ action: "scroll" }, {}, "scroll needs a selector (the element to scroll to) or scrollBy (pixels down, negative for up)"],
      [{ action: "scroll", selector: "#bottom", scrollBy: "10" }, {}, "scroll takes a selector (scroll to that element) or scrollBy (pixels), not both"],
      [
        { action: "upload", selector: "#file", file: join(folder(), "not-there.txt") },
        {},
        `file ${JSON.stringify(join(folder(), "not-there.txt"))} does not exist (or cannot be read) on Node-RED's machine`,
      ],
      [
        { action: "upload", selector: "#file" },
        { payload: { page: "not a file" } },
        "upload needs a file: set the node's File to a path, or send msg.payload as a Buffer (a read file node gives one) with msg.filename",
      ],
      [{ action: "upload", selector: "#file" }, { payload: Buffer.from("x") }, "msg.filename is missing: name the file msg.payload holds (e.g. report.csv), as the page will see it"],
      [{ action: "setCookies" }, { payload: "session=s3cret" }, "msg.payload is a name=value; … header, which says nothing of the site it is for: set the node's Cookie domain (e.g. example.com)"],
      [{ action: "setCookies" }, { payload: [{ name: "session", value: "s3cret" }] }, "msg.payload[0] has no `domain` (with a `path`) or `url`"],
    ];
    const outcomes = await runChains(cases.map(([step, fields]) => ({ steps: [step], input: { ...fields, ...nowhere } })));
    outcomes.forEach((outcome, index) => {
      assert.deepEqual(outcome.out, [], `case ${index}: nothing came out`);
      assert.deepEqual(outcome.errors, [{ node: `c${index}s0`, kind: "input", text: `browser failed: ${cases[index]?.[2]}` }], `case ${index}`);
    });
    const [unknown] = await runChains([{ steps: [open(), { action: "press", key: "NotAKey" }], input: { morelogin: { profile: one() } } }]);
    assert.equal(unknown?.errors[0]?.kind, "input");
    assert.equal(unknown?.errors[0]?.text, 'browser failed: key "NotAKey" is not a key: use a key name such as Enter, Tab, Escape, ArrowDown or a, or a chord such as Control+A');
  });
});
