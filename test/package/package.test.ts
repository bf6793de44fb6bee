import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_RETRY } from "../../src/client";
import { startEmulator, type Emulator } from "../../src/emulator";
import { distinctColours } from "../support/png";
import { deviceOfSku } from "../../src/emulator/phone-state";
import { CAPPED_CONFIG_ID, EXAMPLE_CONFIG_ID, deployAndStart, loadExamples, packPackage, packedFiles, prepareUserDir, startNodeRed, type FlowNode, type RunningNodeRed } from "../../tools/sandbox";
import { DEMO_EMULATOR_OPTIONS } from "../../tools/start-args";
import { CHROMIUM } from "../support/chromium";
import { QUICK_TIMINGS } from "../support/emulator";
import { NODE_TYPES } from "../support/node-types";
import { nodeBinary, redJs, runtimeLabel } from "../support/runtime";
import { waitUntil } from "../support/wait-until";
import { DebugSidebar, sidebarUntil, type DebugMessage } from "../support/debug-sidebar";

describe(`package: installed from its tarball into ${runtimeLabel}`, function () {
  this.timeout(180_000);
  let work: string;
  let emulator: Emulator;
  let nodeRed: RunningNodeRed;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "morelogin-package-"));
    const tarball = await packPackage(join(work, "pack"));
    await prepareUserDir(join(work, "user"), tarball, { fresh: true });
    // npm start's data (every cloud phone off at start), its boots and automation runs quick (QUICK_TIMINGS).
    // Profiles get stand-in debug ports: only the examples that open a page (10, 12, 17) get a real headless
    // Chromium, through withChromium; a Chromium behind every other start (about a CPU-second each) would
    // only load the machine.
    emulator = await startEmulator({ ...DEMO_EMULATOR_OPTIONS, ...QUICK_TIMINGS });
    nodeRed = await startNodeRed({ userDir: join(work, "user"), node: nodeBinary, redJs });
  });

  after(async () => {
    await nodeRed?.stop();
    await emulator?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Runs `work` with a real Chromium behind each profile started meanwhile, as `npm start` gives one when chromium is installed. */
  async function withChromium<T>(work: () => Promise<T>): Promise<T> {
    emulator.setBrowser(CHROMIUM);
    try {
      return await work();
    } finally {
      emulator.setBrowser(undefined);
    }
  }

  it("ships only what Node-RED needs", async () => {
    const files = await packedFiles();
    const allowed = /^(dist\/.+|examples\/.+\.json|example-data\/.+|resources\/morelogin-(editor|settings-pickers)\.js|README\.md|LICENSE|CHANGELOG\.md|package\.json)$/;
    assert.deepEqual(
      files.filter((file) => !allowed.test(file)),
      [],
    );
    assert.deepEqual(
      files.filter((file) => /\.map$|\.tgz$|^(src|test|tools)\/|\.env|credentials|flows_cred/.test(file)),
      [],
    );
    for (const type of NODE_TYPES) {
      for (const file of [`dist/nodes/${type}.js`, `dist/nodes/${type}.html`, `dist/nodes/locales/en-US/${type}.json`]) {
        assert.ok(files.includes(file), `${file} is packed`);
      }
    }
    assert.ok(files.includes("dist/emulator/cli.js"));
    assert.ok(files.some((file) => /^dist\/nodes\/icons\/.+\.svg$/.test(file)));
  });

  it("has an example flow for every operation node", () => {
    const examples = loadExamples({});
    const used = new Set(examples.flows.map((node) => node.type));
    assert.deepEqual(
      NODE_TYPES.filter((type) => !used.has(type)),
      [],
    );
    for (const [name, nodes] of examples.byExample) {
      assert.ok(
        nodes.some((node) => node.type === "comment"),
        `${name} explains itself in a Comment node`,
      );
    }
  });

  it(`lists all ${NODE_TYPES.length} node types, loaded and enabled`, async () => {
    const response = await fetch(`${nodeRed.url}/nodes`, { headers: { accept: "application/json" } });
    assert.equal(response.status, 200);
    const sets = (await response.json()) as Array<{ module: string; types: string[]; enabled: boolean; err?: string }>;
    const ours = sets.filter((set) => set.module === "node-red-contrib-morelogin");
    assert.deepEqual(ours.flatMap((set) => set.types).sort(), [...NODE_TYPES].sort());
    for (const set of ours) {
      assert.equal(set.err, undefined, `${set.types.join()} loaded without error`);
      assert.equal(set.enabled, true);
    }
  });

  it("deploys every example flow without errors, and the list profiles example reaches the API", async () => {
    const examples = loadExamples({ localUrl: emulator.localUrl, openUrl: emulator.openUrl });
    const credentials = { apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
    const flows = examples.flows.map((node) => (node.id === EXAMPLE_CONFIG_ID ? { ...node, credentials } : node));
    const before = nodeRed.output().length;
    await deployAndStart(nodeRed, flows);

    const deployed = (await (await fetch(`${nodeRed.url}/flows`, { headers: { "Node-RED-API-Version": "v2" } })).json()) as { flows: Array<{ id: string; type: string }> };
    assert.equal(deployed.flows.length, flows.length);
    const log = nodeRed.output().slice(before);
    assert.doesNotMatch(log, /\[error\]|\[warn\]/, log);
    assert.match(log, /Started flows/);

    // Secrets stay out of flows.json, and the editor only learns that they are set.
    const flowsFile = readFileSync(join(work, "user", "flows.json"), "utf8");
    for (const secret of [emulator.credentials.apiKey, emulator.credentials.apiId]) assert.equal(flowsFile.includes(secret), false, "flows.json holds no credential");
    const editorView = (await (await fetch(`${nodeRed.url}/credentials/morelogin-config/${EXAMPLE_CONFIG_ID}`)).json()) as Record<string, unknown>;
    assert.deepEqual(editorView, { has_localToken: false, apiId: emulator.credentials.apiId, has_apiKey: true });

    const listExample = [...examples.byExample.entries()].find(([name]) => /list profiles/i.test(name));
    assert.ok(listExample, "an example named after list profiles exists");
    const inject = listExample[1].find((node) => node.type === "inject");
    assert.ok(inject, "the list profiles example starts with an inject node");
    emulator.resetStats();
    const injected = await fetch(`${nodeRed.url}/inject/${inject.id}`, { method: "POST" });
    assert.equal(injected.status, 200);
    await waitUntil(() => (emulator.stats.requests["local POST /api/env/page"] ?? 0) >= 1, "the inject reaches the emulator", 10_000).catch(() => undefined);
    assert.ok((emulator.stats.requests["local POST /api/env/page"] ?? 0) >= 1, "the inject reached the emulator");
    assert.doesNotMatch(nodeRed.output().slice(before), /\[error\]/);
  });

  describe("the workflow examples, run as a user runs them (inject, then read the Debug sidebar)", () => {
    let examples: ReturnType<typeof loadExamples>;
    let sidebar: DebugSidebar;

    before(async () => {
      sidebar = await DebugSidebar.open(nodeRed.url);
      examples = loadExamples({ localUrl: emulator.localUrl, openUrl: emulator.openUrl });
      // The watch examples see what the other examples do: each is on only beside examples it does not see (deployWatch).
      await deployWatching(new Set());
    });

    after(() => sidebar?.close());

    /** Deploys every example, its config node with the emulator's credentials, with only the watch nodes in `watching` on. */
    async function deployWatching(watching: ReadonlySet<string>): Promise<void> {
      const credentials = { apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
      await deployAndStart(
        nodeRed,
        examples.flows.map((node) => (node.id === EXAMPLE_CONFIG_ID ? { ...node, credentials } : node.type === "morelogin-watch" ? { ...node, d: !watching.has(node.id) } : node)),
      );
    }

    function example(number: string): FlowNode[] {
      const found = [...examples.byExample.entries()].find(([name]) => name.startsWith(`${number} `));
      assert.ok(found, `example ${number} exists`);
      return found[1];
    }

    function nodeNamed(nodes: readonly FlowNode[], name: string): FlowNode {
      const node = nodes.find((candidate) => candidate.name === name);
      assert.ok(node, `a node named "${name}"`);
      return node;
    }

    /**
     * The emulator's profiles that an example's list profiles node lists: its Name (a part of the name)
     * and Group filters, one page of pageSize unless it fetches every page, at most maxItems.
     */
    function listedBy(list: FlowNode): Array<{ id: string; envName: string }> {
      const name = String(list.envName ?? "").toLowerCase();
      const group = String(list.groupId ?? "");
      const matching = emulator.data.profiles.filter((profile) => profile.envName.toLowerCase().includes(name) && (group === "" || profile.groupId === group));
      const limit = list.all === true ? Number(list.maxItems || 10_000) : Number(list.pageSize || 10);
      return matching.slice(0, limit).map(({ id, envName }) => ({ id, envName }));
    }

    /** The example's list profiles node. */
    function listOf(number: string): FlowNode {
      const list = example(number).find((node) => node.type === "morelogin-list-profiles");
      assert.ok(list, `example ${number} lists its profiles`);
      return list;
    }

    /**
     * The emulator's phones that an example works on: those its list cloud phones node lists (its Keyword, a
     * part of a phone's name, group or tag; one page of pageSize unless it fetches every page), or the
     * phone its first cloud phone node names.
     */
    function phonesOf(number: string): Array<{ id: string; envName: string }> {
      const list = example(number).find((node) => node.type === "morelogin-list-cloud-phones");
      if (list === undefined) {
        const named = example(number).find((node) => node.type === "morelogin-cloud-phone" && node.phoneIdType === "str" && node.phoneId);
        assert.ok(named, `example ${number} lists its phones or names one`);
        return emulator.data.cloudPhones.filter((phone) => phone.id === named.phoneId).map(({ id, envName }) => ({ id, envName }));
      }
      const keyword = String(list.keyword ?? "").toLowerCase();
      const has = (text: string | null): boolean => (text ?? "").toLowerCase().includes(keyword);
      const matching = emulator.data.cloudPhones.filter((phone) => has(phone.envName) || has(phone.groupName) || phone.tagInfos.some((tag) => has(tag.tagName)));
      const limit = list.all === true ? Number(list.maxItems || 10_000) : Number(list.pageSize || 10);
      return matching.slice(0, limit).map(({ id, envName }) => ({ id, envName }));
    }

    /** The phones that are not off (2): on, booting, restarting or resetting. Deleted ones (deactivated) are off. */
    const notOff = (): string[] => emulator.data.cloudPhones.filter((phone) => phone.envStatus !== 2).map((phone) => `${phone.envName} (${phone.envStatus})`);

    /**
     * Clicks the example's inject button and waits until its Debug node `last` has shown `count`
     * messages; gives every Debug message of the example meanwhile. A message on its "error" Debug
     * node ends the wait at once unless `errors` are expected.
     */
    async function run(nodes: readonly FlowNode[], last: string, options: { count?: number; errors?: boolean; timeoutMs?: number } = {}): Promise<DebugMessage[]> {
      const inject = nodes.find((node) => node.type === "inject");
      assert.ok(inject, "the example starts with an inject node");
      const from = sidebar.mark();
      const logFrom = nodeRed.output().length;
      const injected = await fetch(`${nodeRed.url}/inject/${inject.id}`, { method: "POST" });
      assert.equal(injected.status, 200);
      const errorsIn = (messages: readonly DebugMessage[]): DebugMessage[] => messages.filter((message) => message.name === "error");
      const messages = await sidebarUntil(
        () => sidebar.since(from, nodes),
        (shown) => (errorsIn(shown).length > 0 && !options.errors) || shown.filter((message) => message.name === last).length >= (options.count ?? 1),
        options.timeoutMs ?? 120_000,
        (shown) => `"${last}" showed nothing in time; the sidebar got ${JSON.stringify(shown).slice(0, 2000)}`,
      );
      const errors = errorsIn(messages);
      if (errors.length > 0 && !options.errors) assert.fail(`the example failed: ${JSON.stringify(errors.map((error) => error.value))}`);
      assert.doesNotMatch(nodeRed.output().slice(logFrom), /\[error\]/);
      return messages;
    }

    /** The example's messages since `from`, once its "summary" Debug node has shown one. */
    function waitForSummary(from: number): Promise<DebugMessage[]> {
      return sidebarUntil(
        () => sidebar.since(from, example("06")),
        (shown) => shown.some((message) => message.name === "summary"),
        120_000,
        () => "the summary did not show in time",
      );
    }

    const valuesOf = (messages: readonly DebugMessage[], name: string): unknown[] => messages.filter((message) => message.name === name).map((message) => message.value);
    const requestsTo = (path: string): Array<{ path: string; body: unknown }> => emulator.requestLog.filter((request) => request.api === "local" && request.path === path);

    /** Redeploys every example with the capped config node's Profiles running set to `maxProfiles`. */
    async function deployWithMaxProfiles(maxProfiles: string): Promise<void> {
      const credentials = { apiId: emulator.credentials.apiId, apiKey: emulator.credentials.apiKey };
      await deployAndStart(
        nodeRed,
        examples.flows.map((node) => {
          if (node.id === EXAMPLE_CONFIG_ID) return { ...node, credentials };
          return node.id === CAPPED_CONFIG_ID ? { ...node, maxProfiles } : node;
        }),
      );
    }

    /** "start <id>" and "close <id>", in the order the emulator got them. */
    const lifecycle = (): string[] =>
      emulator.requestLog
        .filter((request) => request.path === "/api/env/start" || request.path === "/api/env/close")
        .map((request) => `${request.path === "/api/env/start" ? "start" : "close"} ${(request.body as { envId?: string }).envId}`);

    /** Example `number`'s watch node. */
    function watchOf(number: string): FlowNode {
      const watch = example(number).find((node) => node.type === "morelogin-watch");
      assert.ok(watch, `example ${number} has a watch node`);
      return watch;
    }

    /**
     * Deploys every example with example `number`'s watch on (every other watch off), and waits until it has
     * polled once: its first poll only learns what runs, so a change made before it would not be a change. A
     * watch shows "starting" (blue) as it starts and what it saw (green) after each poll. Returns where the
     * example's Debug messages begin.
     */
    async function deployWatch(number: string): Promise<number> {
      const watch = watchOf(number);
      const statusFrom = sidebar.statusMark();
      await deployWatching(new Set([watch.id]));
      const from = sidebar.mark();
      const polledOnce = (): boolean => {
        const fills = sidebar.statusesSince(statusFrom, watch.id).map((status) => status.fill);
        return fills.includes("blue") && fills.lastIndexOf("green") > fills.indexOf("blue");
      };
      await waitUntil(polledOnce, `example ${number}'s watch has polled once`, 30_000).catch(() => assert.fail(`example ${number}'s watch did not poll`));
      return from;
    }

    /** Waits until the Debug node `name` of example `number` has shown `count` messages since `from`; fails at once on the example's "error" Debug node. */
    async function waitForWatch(number: string, from: number, name: string, count: number): Promise<DebugMessage[]> {
      const messages = await sidebarUntil(
        () => sidebar.since(from, example(number)),
        (shown) => valuesOf(shown, "error").length > 0 || valuesOf(shown, name).length >= count,
        60_000,
        (shown) => `"${name}" showed ${valuesOf(shown, name).length} of ${count} messages in time`,
      );
      const errors = valuesOf(messages, "error");
      if (errors.length > 0) assert.fail(`the example failed: ${JSON.stringify(errors)}`);
      return messages;
    }

    const post = (path: string, body: unknown): Promise<Response> =>
      fetch(`${emulator.localUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    describe("the profile examples, while 13 watches the phones", () => {
      // 13 watches every phone, and these examples start and close profiles only: its 10 s polls run while they
      // do, and its test comes last.
      let from13: number;
      let phone13: { id: string };
      let phoneOn: number;

      before(async () => {
        from13 = await deployWatch("13");
        const off = emulator.data.cloudPhones.find((candidate) => candidate.envStatus === 2);
        assert.ok(off, "a phone that is off");
        phone13 = off;
        phoneOn = (await post("/api/cloudphone/powerOn", { id: off.id })).status;
      });

      it("02 Start and close a profile: the function node's {envId} starts each listed profile, and each is closed again", async () => {
        // The example lists the profiles of one group of the emulator's, its own.
        const list = listOf("02");
        assert.ok(
          emulator.data.groups.some((group) => group.id === list.groupId),
          `the example's group ${String(list.groupId)} is one of the emulator's`,
        );
        const own = listedBy(list);
        assert.ok(own.length > 1, "a few profiles");
        emulator.resetStats();
        const messages = await run(example("02"), "closed", { count: own.length });

        const bodies = requestsTo("/api/env/start").map((request) => request.body as { envId: string });
        assert.deepEqual(
          bodies,
          bodies.map(({ envId }) => ({ envId })),
          "start profile sends just the {envId} the function node built",
        );
        assert.deepEqual(bodies.map(({ envId }) => envId).sort(), own.map((profile) => profile.id).sort(), "each profile of the group started, once");
        assert.equal(valuesOf(messages, "started (CDP URLs)").length, own.length);
        assert.deepEqual(emulator.running(), []);
      });

      it("09 Create, start, close and delete a profile: says so, and the profile is gone", async () => {
        const before = emulator.data.profiles.length;
        emulator.resetStats();
        const messages = await run(example("09"), "done");

        const [done] = valuesOf(messages, "done");
        const match = /^Profile (\d{19}) was created, started, closed and moved to the recycle bin$/.exec(String(done));
        assert.ok(match, `the Debug sidebar says what happened: ${String(done)}`);
        const envId = match[1];
        assert.deepEqual(
          requestsTo("/api/env/start").map((request) => request.body),
          [{ envId }],
        );
        assert.deepEqual(
          requestsTo("/api/env/removeToRecycleBin/batch").map((request) => request.body),
          [{ envIds: [envId] }],
        );
        assert.equal(emulator.data.profiles.length, before);
        assert.equal(
          emulator.data.profiles.some((profile) => profile.id === envId),
          false,
        );
        assert.deepEqual(emulator.running(), []);
      });

      it("15 Rotate proxies: adds a proxy, sets it on a profile, shows it in the detail, takes it off and deletes it", async () => {
        emulator.resetStats();
        const messages = await run(example("15"), "done");

        const [shown] = valuesOf(messages, "profile's proxy") as Array<{ envId: string; proxyId: string }>;
        assert.ok(shown, "the detail is shown");
        const { envId, proxyId } = shown;
        assert.match(proxyId, /^\d{19}$/);
        assert.deepEqual(valuesOf(messages, "done"), [`Proxy ${proxyId} was added, set on profile ${envId}, seen in its detail, taken off and deleted`]);
        assert.deepEqual(
          requestsTo("/api/env/setProxy/batch").map((request) => request.body),
          [{ envIds: [envId], proxy: { proxyId } }],
        );
        assert.deepEqual(
          requestsTo("/api/proxyInfo/delete").map((request) => request.body),
          [[proxyId]],
        );
        assert.equal(
          emulator.data.proxies.some((proxy) => proxy.id === proxyId),
          false,
        );
        assert.equal(emulator.data.profiles.find((profile) => profile.id === envId)?.proxyId, "0");
      });

      it("03 Cloud phones, proxies, groups and tags: the group and tag lanes create one and delete it again", async () => {
        const groups = emulator.data.groups.length;
        const tags = emulator.data.tags.length;
        const nodes = example("03");
        /** The example with the inject node of this lane first, which run() presses. */
        const lane = (inject: string): FlowNode[] => {
          const button = nodeNamed(nodes, inject);
          return [button, ...nodes.filter((node) => node !== button)];
        };
        assert.equal((valuesOf(await run(lane("create and delete a group"), "group deleted"), "new group")[0] as { groupName: string }).groupName, "Node-RED example");
        // The Debug sidebar shows a boolean as its text.
        assert.deepEqual(valuesOf(await run(lane("create and delete a tag"), "tag deleted"), "tag deleted"), ["true"]);
        assert.equal(emulator.data.groups.length, groups);
        assert.equal(emulator.data.tags.length, tags);
      });

      it("10 Open a page and take a screenshot: greets Node-RED on the demo page, saves a PNG where Node-RED runs, and closes the profile", async () => {
        // Node-RED runs in its user folder (startNodeRed's cwd), and the file node's name is relative.
        const screenshot = join(work, "user", "morelogin-demo-screenshot.png");
        assert.equal(existsSync(screenshot), false, "no screenshot before the run");
        const nodes = example("10");
        emulator.resetStats();
        const messages = await withChromium(() => run(nodes, "done"));

        assert.deepEqual(valuesOf(messages, "done"), ["Hello, Node-RED! (screenshot saved to morelogin-demo-screenshot.png)"]);
        assert.deepEqual(valuesOf(messages, "error"), []);
        const png = readFileSync(screenshot);
        assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "the file is a PNG");
        assert.ok(png.length > 2_000 && png.length < 5_000_000, `a page's screenshot, not an empty image: ${png.length} bytes`);
        const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
        assert.ok(width >= 300 && height >= 200, `the size of a browser window: ${width}x${height}`);
        assert.equal(requestsTo("/api/env/start").length, 1);
        // The profile was closed: no profile runs, and its Chromium has exited.
        assert.deepEqual(emulator.running(), []);
      });

      it("02, 06, 09, 10, 16 and 17 pressed together: each starts and closes profiles of its own, and ends as it does alone", async () => {
        const own = new Map(["02", "06", "10", "16", "17"].map((number) => [number, listedBy(listOf(number))]));
        for (const [number, profiles] of own) assert.ok(profiles.length > 0, `example ${number} lists profiles of the emulator's`);
        const press = async (number: string): Promise<void> => {
          const inject = example(number).find((node) => node.type === "inject");
          assert.ok(inject, `example ${number} starts with an inject node`);
          assert.equal((await fetch(`${nodeRed.url}/inject/${inject.id}`, { method: "POST" })).status, 200);
        };
        const shown = (number: string, name: string): unknown[] => valuesOf(sidebar.since(from, example(number)), name);
        const together = ["02", "06", "09", "10", "16", "17"];
        const errors = (): unknown[] => together.flatMap((number) => shown(number, "error").map((error) => ({ example: number, error })));
        emulator.resetStats();
        const from = sidebar.mark();
        const logFrom = nodeRed.output().length;
        // 10 and 17 drive a real Chromium; the others never open a page: the browser is switched off once
        // 10's and 17's starts have been answered.
        await withChromium(async () => {
          await Promise.all([press("10"), press("17")]);
          await waitUntil(() => Object.values(emulator.served().profiles).reduce((starts, served) => starts + served.starts, 0) >= 2, "examples 10 and 17 have started their profiles", 60_000);
        });
        await Promise.all(["02", "06", "09", "16"].map(press));
        const closed = (profiles: ReadonlyArray<{ id: string }>): boolean => profiles.every((profile) => lifecycle().includes(`close ${profile.id}`));
        const outcomes = (): Record<string, boolean> => ({
          "02": shown("02", "closed").length >= (own.get("02")?.length ?? 0),
          "06": shown("06", "summary").length > 0,
          "09": shown("09", "done").length > 0,
          "10": shown("10", "done").length > 0,
          "16": closed(own.get("16") ?? []),
          "17": shown("17", "saved").length > 0,
        });
        await waitUntil(
          async () => errors().length > 0 || Object.values(outcomes()).every(Boolean),
          (ended) => ended,
          "every example pressed has ended",
          120_000,
        ).catch(() => assert.fail(`not every example ended in time: ${JSON.stringify(outcomes())}`));
        assert.deepEqual(errors(), [], "no example failed");

        assert.equal(shown("02", "closed").length, own.get("02")?.length);
        assert.deepEqual(shown("06", "summary"), [`${own.get("06")?.length} profiles visited`]);
        assert.match(String(shown("09", "done")[0]), /^Profile \d{19} was created, started, closed and moved to the recycle bin$/);
        assert.deepEqual(shown("10", "done"), ["Hello, Node-RED! (screenshot saved to morelogin-demo-screenshot.png)"]);
        assert.equal((shown("17", "rows")[0] as unknown[] | undefined)?.length, 8, "the price list's eight rows");
        // No profile is another example's: each was started once and closed once, and no call was refused.
        const everyOwn = [...own.values()].flat().map((profile) => profile.id);
        assert.equal(new Set(everyOwn).size, everyOwn.length, `the examples list profiles of their own: ${JSON.stringify(Object.fromEntries(own))}`);
        for (const id of everyOwn) {
          assert.deepEqual(
            lifecycle().filter((event) => event.endsWith(` ${id}`)),
            [`start ${id}`, `close ${id}`],
          );
        }
        assert.deepEqual(
          Object.values(emulator.served().profiles).filter((served) => served.refused > 0),
          [],
        );
        assert.deepEqual(emulator.running(), []);
        assert.doesNotMatch(nodeRed.output().slice(logFrom), /\[error\]/);
      });

      it("13 Cloud phone events: a phone powered on elsewhere shows running; powered off, stopped", async () => {
        assert.equal(phoneOn, 200);
        const running = await waitForWatch("13", from13, "running", 1);
        assert.deepEqual(
          valuesOf(running, "running").map((value) => (value as { id: string; to: number }).id),
          [phone13.id],
        );
        assert.equal((await post("/api/cloudphone/powerOff", { id: phone13.id })).status, 200);
        const stopped = await waitForWatch("13", from13, "stopped", 1);
        assert.deepEqual(
          valuesOf(stopped, "stopped").map((value) => [(value as { id: string }).id, (value as { from: number }).from, (value as { to: number }).to]),
          [[phone13.id, 4, 2]],
        );
      });
    });

    describe("the phone examples, while 12 watches one profile", () => {
      // 12 watches one profile's start, and these examples power phones on and off only: its screenshot is
      // taken while they run, and its test waits for it before the last of them deploys again.
      let from12: number;
      let envId: string;
      let profileStart: number;

      before(async () => {
        from12 = await deployWatch("12");
        // The example watches one profile of the emulator's seeded data (its Only field).
        envId = String(watchOf("12").ids ?? "");
        profileStart = (await withChromium(() => post("/api/env/start", { envId }))).status;
      });

      it("07 A cloud phone: powers its phone on, shows its ADB details and model, and powers it off again", async () => {
        const nodes = example("07");
        // The example finds its phone by name, whatever the seed's IDs.
        const [own, ...more] = phonesOf("07");
        assert.ok(own, "the example finds a phone of the emulator's seed data");
        assert.deepEqual(more, [], "and one only");
        const phoneId = own.id;
        const phone = emulator.data.cloudPhones.find((candidate) => candidate.id === phoneId);
        assert.ok(phone);
        assert.equal(phone.envStatus, 2, "one that is powered off (npm start's data), so that the power-on works");
        emulator.resetStats();
        const messages = await run(nodes, "powered off again");

        const [adb] = valuesOf(messages, "ADB details") as Array<Record<string, unknown>>;
        assert.equal(adb?.id, phoneId);
        assert.equal(adb?.envStatus, 4, "the phone was running when its ADB details were read");
        assert.match(String(adb?.adbIp), /^\d+\.\d+\.\d+\.\d+$/);
        const [off] = valuesOf(messages, "powered off again") as Array<Record<string, unknown>>;
        assert.equal(off?.id, phoneId);
        assert.equal(off?.envStatus, 2);
        assert.deepEqual(valuesOf(messages, "model"), [deviceOfSku(String(off?.skuId))?.model]);
        assert.equal(phone.envStatus, 2, "the phone is off again, so the example can run again");
        assert.equal(emulator.stats.requests["local POST /api/cloudphone/powerOn"], 1);
        assert.equal(emulator.stats.requests["local POST /api/cloudphone/powerOff"], 1);
      });

      it("08 Automation on a group's phones: powers on those of its group that are off, one run on each phone, every run succeeds, and powers off only those it powered on", async () => {
        const own = phonesOf("08");
        assert.ok(own.length > 1, "a few phones of the group");
        assert.ok(own.length < emulator.data.cloudPhones.length, "a group, not every phone");
        // One phone of the group is on already, as if a person used it: the example uses it as it is and leaves it on.
        const [byHand, ...others] = own;
        assert.ok(byHand);
        const post = (path: string, id: string): Promise<Response> =>
          fetch(`${emulator.localUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id }) });
        assert.equal((await post("/api/cloudphone/powerOn", byHand.id)).status, 200);
        const status = (id: string): number | undefined => emulator.data.cloudPhones.find((phone) => phone.id === id)?.envStatus;
        await waitUntil(() => status(byHand.id) === 4, "the phone powered on by hand runs", 30_000);
        emulator.resetStats();
        const from = sidebar.mark();
        const messages = await run(example("08"), "results");

        assert.deepEqual(valuesOf(messages, "results"), [
          {
            summary: `${own.length} of ${own.length} runs succeeded`,
            phones: own.map((phone) => `${phone.envName}: succeeded`),
          },
        ]);
        const [runs] = valuesOf(messages, "each run") as Array<Array<Record<string, unknown>>>;
        assert.deepEqual(
          runs?.map((run) => [run.cloudPhoneId, run.templateName, run.taskState]),
          own.map((phone) => [phone.id, "Search and like posts", 3]),
        );
        for (const request of requestsTo("/api/cloudphone/rpa/onceTask/save")) {
          assert.deepEqual(JSON.parse(String((request.body as { templateParameter: string }).templateParameter)), { keyword: "coffee", count: 3 });
        }
        // The phones it powered on are powered off again; the one that was on stays on.
        await sidebarUntil(
          () => sidebar.since(from, example("08")),
          (shown) => valuesOf(shown, "powered off again").length >= others.length,
          60_000,
          (shown) => `"powered off again" showed ${valuesOf(shown, "powered off again").length} of ${others.length} phones`,
        );
        assert.deepEqual(
          Object.entries(emulator.served().phones)
            .map(([id, served]) => [id, served.powerOns, served.powerOffs, served.refused])
            .sort(),
          others.map((phone) => [phone.id, 1, 1, 0]).sort(),
          "each phone that was off powered on once and off once; no other phone touched",
        );
        assert.deepEqual(
          own.map((phone) => status(phone.id)),
          own.map((phone) => (phone === byHand ? 4 : 2)),
        );
        assert.equal((await post("/api/cloudphone/powerOff", byHand.id)).status, 200);
      });

      it("11 Every phone, two at a time: runs the command on every phone it lists, never more than 2 on at once, and leaves them all off", async () => {
        const phones = phonesOf("11");
        assert.ok(phones.length > 2, `more phones than its cap of two: ${JSON.stringify(phones)}`);
        assert.ok(phones.length < emulator.data.cloudPhones.length, "phones of its own, not every phone");
        assert.deepEqual(notOff(), [], "every phone is off (npm start's data)");
        // One of its phones is on, as if a person used it: it counts against the cap from the start.
        const [byHand] = phones;
        assert.ok(byHand);
        const on = await fetch(`${emulator.localUrl}/api/cloudphone/powerOn`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: byHand.id }) });
        assert.equal(on.status, 200);
        await waitUntil(() => emulator.data.cloudPhones.find((phone) => phone.id === byHand.id)?.envStatus === 4, "the phone powered on by hand runs", 30_000);
        emulator.resetStats();
        const messages = await run(example("11"), "phones summary");

        assert.deepEqual(valuesOf(messages, "phones summary"), [`command ran on ${phones.length} phones`]);
        assert.deepEqual((valuesOf(messages, "each phone") as Array<{ id: string }>).map((phone) => phone.id).sort(), phones.map((phone) => phone.id).sort());
        // Counted by the emulator: the phone left on and one more, never a third.
        assert.equal(emulator.stats.peakPoweredPhones, 2);
        assert.equal(emulator.stats.requests["local POST /api/cloudphone/powerOn"], phones.length - 1, "every phone that was off was powered on once");
        assert.equal(emulator.stats.requests["local POST /api/cloudphone/exeCommand"], phones.length);
        assert.deepEqual(Object.keys(emulator.served().phones).sort(), phones.map((phone) => phone.id).sort(), "no other phone was powered on or off");
        assert.deepEqual(notOff(), [], "every phone is off again");
      });

      it("18 A cloud-phone fleet: creates three phones, then two at a time powers each on, uploads its file, runs the automation, downloads the file and deletes the phone", async () => {
        const seeded = new Set(emulator.data.cloudPhones.map((phone) => phone.id));
        // The config node allows two phones on at once, and npm start's data has every phone off: the fleet has both places.
        assert.deepEqual(notOff(), [], "every phone is off (npm start's data)");
        emulator.resetStats();
        const from = sidebar.mark();
        const messages = await run(example("18"), "each phone's result", { count: 3 });
        const results = valuesOf(messages, "each phone's result") as Array<{ phone: string; file: string }>;
        const created = emulator.data.cloudPhones.filter((phone) => !seeded.has(phone.id));
        assert.equal(created.length, 3);
        assert.deepEqual(results.map((result) => result.phone).sort(), created.map((phone) => phone.id).sort());
        for (const result of results) assert.equal(result.file, `task for phone ${result.phone}`, "the file downloaded is the file uploaded");
        // The batch node says it is done once every phone was deleted.
        await waitUntil(
          () => valuesOf(sidebar.since(from, example("18")), "fleet progress").some((progress) => (progress as { done?: number }).done === 3),
          "the batch counts three phones done",
          60_000,
        );
        assert.equal(emulator.stats.requests["local POST /api/cloudphone/delete/batch"], 3);
        assert.equal(emulator.stats.requests["local POST /api/cloudphone/powerOn"], 3);
        assert.ok(emulator.stats.peakPoweredPhones <= 2, `never more than 2 phones on (${emulator.stats.peakPoweredPhones})`);
        assert.deepEqual(
          created.map((phone) => [phone.envStatus, phone.abnormalStatus]),
          [
            [2, 4],
            [2, 4],
            [2, 4],
          ],
          "each phone is off and deleted (listed as deactivated)",
        );
      });

      it("12 When a profile starts, take a screenshot: the watched profile, started elsewhere, is photographed once, showing the page it opened", async () => {
        const screenshot = join(work, "user", "morelogin-watch-screenshot.png");
        assert.ok(
          emulator.data.profiles.some((profile) => profile.id === envId),
          `the watched profile ${envId} is one of the emulator's`,
        );
        assert.equal(profileStart, 200);
        const messages = await waitForWatch("12", from12, "saved", 1);
        assert.deepEqual(valuesOf(messages, "saved"), [envId]);
        const png = readFileSync(screenshot);
        assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], "the file is a PNG");
        // A blank page (about:blank, all the new profile holds) is one colour; the demo page has text and a button.
        assert.ok(distinctColours(png) > 16, `the screenshot shows a page: ${distinctColours(png)} colours`);
        assert.equal((await post("/api/env/close", { envId })).status, 200);
      });

      it("07, 08, 11 and 18 pressed together: each powers on (or creates) phones of its own, ends as it does alone, and leaves every phone off", async () => {
        // 11 and 18 alone, just before, spent most of their config node's 120 requests a minute: pressed within
        // that minute, they would wait ~30 s for the budget (the pacing, tested in test/nodes). A deploy gives the
        // config node a fresh count, as after a user's deploy.
        await deployWatching(new Set());
        const own = new Map(["07", "08", "11"].map((number) => [number, phonesOf(number)]));
        const seeded = new Set(emulator.data.cloudPhones.map((phone) => phone.id));
        assert.deepEqual(notOff(), [], "every phone is off before (npm start's data)");
        const press = async (number: string): Promise<void> => {
          const inject = example(number).find((node) => node.type === "inject");
          assert.ok(inject, `example ${number} starts with an inject node`);
          assert.equal((await fetch(`${nodeRed.url}/inject/${inject.id}`, { method: "POST" })).status, 200);
        };
        const together = ["07", "08", "11", "18"];
        const shown = (number: string, name: string): unknown[] => valuesOf(sidebar.since(from, example(number)), name);
        const errors = (): unknown[] => together.flatMap((number) => shown(number, "error").map((error) => ({ example: number, error })));
        // A function node's warning (08's "no cloud phone is running") reaches the sidebar under the node's name.
        const warnings = (): unknown[] => together.flatMap((number) => sidebar.since(from, example(number)).filter((message) => /^no cloud phone/.test(String(message.value))));
        const fleetDone = (): boolean => shown("18", "fleet progress").some((progress) => (progress as { done?: number }).done === 3);
        const outcomes = (): Record<string, boolean> => ({
          "07": shown("07", "powered off again").length > 0,
          "08": shown("08", "results").length > 0,
          "11": shown("11", "phones summary").length > 0,
          "18": fleetDone(),
        });
        emulator.resetStats();
        const from = sidebar.mark();
        const logFrom = nodeRed.output().length;
        await Promise.all(together.map(press));
        await waitUntil(
          async () => errors().length > 0 || warnings().length > 0 || Object.values(outcomes()).every(Boolean),
          (ended) => ended,
          "every example pressed has ended",
          150_000,
        ).catch(() => assert.fail(`not every example ended in time: ${JSON.stringify(outcomes())}; phones not off: ${JSON.stringify(notOff())}`));
        assert.deepEqual(errors(), [], "no example failed");
        assert.deepEqual(warnings(), [], "no example went without phones");
        // Each ended as it does alone.
        const [off] = shown("07", "powered off again") as Array<{ id: string; envStatus: number }>;
        assert.deepEqual([off?.id, off?.envStatus], [own.get("07")?.[0]?.id, 2]);
        const mine = (number: string): Array<{ id: string; envName: string }> => own.get(number) ?? [];
        assert.deepEqual(shown("08", "results"), [
          {
            summary: `${mine("08").length} of ${mine("08").length} runs succeeded`,
            phones: mine("08").map((phone) => `${phone.envName}: succeeded`),
          },
        ]);
        assert.deepEqual(shown("11", "phones summary"), [`command ran on ${mine("11").length} phones`]);
        const created = emulator.data.cloudPhones.filter((phone) => !seeded.has(phone.id));
        assert.equal(created.length, 3, "18 created three phones");
        assert.deepEqual((shown("18", "each phone's result") as Array<{ phone: string }>).map((result) => result.phone).sort(), created.map((phone) => phone.id).sort());
        // No phone is another example's: the sets are apart, and each phone was powered on once and off (or deleted) once, none refused.
        const everyOwn = [...own.values()].flat().map((phone) => phone.id);
        assert.ok(mine("07").length === 1 && mine("08").length > 1 && mine("11").length > 2, `07 one phone, 08 a few, 11 more than its cap of two: ${JSON.stringify(Object.fromEntries(own))}`);
        assert.equal(new Set(everyOwn).size, everyOwn.length, `the examples work on phones of their own: ${JSON.stringify(Object.fromEntries(own))}`);
        const served = emulator.served().phones;
        const counts = (id: string) => {
          const entry = served[id];
          return entry && { powerOns: entry.powerOns, powerOffs: entry.powerOffs, deletes: entry.deletes, refused: entry.refused };
        };
        assert.deepEqual(Object.keys(served).sort(), [...everyOwn, ...created.map((phone) => phone.id)].sort(), "no other phone was powered on, off or deleted");
        for (const id of everyOwn) assert.deepEqual(counts(id), { powerOns: 1, powerOffs: 1, deletes: 0, refused: 0 }, `phone ${id}`);
        for (const phone of created) assert.deepEqual(counts(phone.id), { powerOns: 1, powerOffs: 0, deletes: 1, refused: 0 }, `created phone ${phone.id}`);
        // Nothing is left on, and 18's phones are deleted (listed as deactivated).
        await waitUntil(() => notOff().length === 0, "every phone is off", 30_000).catch(() => assert.fail(`phones left on: ${JSON.stringify(notOff())}`));
        assert.deepEqual(
          created.map((phone) => phone.abnormalStatus),
          [4, 4, 4],
        );
        assert.doesNotMatch(nodeRed.output().slice(logFrom), /\[error\]/);
      });
    });

    describe("06, four times", () => {
      it("06 Every profile, N at a time: visits every profile of its group, never more than 3 at once, closes each, and sums up", async () => {
        // Every profile of the example's own group: more than it runs at once.
        const profiles = listedBy(listOf("06"));
        assert.ok(profiles.length > 3);
        assert.ok(profiles.length < emulator.data.profiles.length, "a group, not every profile of the emulator");
        emulator.resetStats();
        const messages = await run(example("06"), "summary");

        assert.deepEqual(valuesOf(messages, "summary"), [`${profiles.length} profiles visited`]);
        const byId = (a: { envId: string }, b: { envId: string }): number => a.envId.localeCompare(b.envId);
        assert.deepEqual(
          (valuesOf(messages, "each visit") as Array<{ envId: string }>).sort(byId),
          profiles.map((profile) => ({ profile: profile.envName, envId: profile.id, visited: true })).sort(byId),
        );
        // Three at a time, counted by the emulator: the cap held the others until a close freed a place.
        assert.equal(emulator.stats.peakRunningProfiles, 3);
        // Each profile started once and closed once after that, and none is left open.
        const events = lifecycle();
        for (const profile of profiles) {
          assert.deepEqual(
            events.filter((event) => event.endsWith(` ${profile.id}`)),
            [`start ${profile.id}`, `close ${profile.id}`],
          );
        }
        assert.deepEqual(emulator.running(), []);
      });

      it("06 Every profile, N at a time: a profile that fails to start is named in the summary, and the others still get their turn", async () => {
        const profiles = listedBy(listOf("06"));
        // One start gets HTTP 503 (a start is never sent twice, so it fails). This run comes within a
        // minute of the first: the config node's 120 requests a minute hold part of it back, and it waits
        // instead of failing.
        emulator.script({ kind: "http503", api: "local", path: "/api/env/start", times: 1 });
        emulator.resetStats();
        const messages = await run(example("06"), "summary", { errors: true });

        const [summary] = valuesOf(messages, "summary");
        const match = new RegExp(`^${profiles.length - 1} profiles visited, 1 failed: (.+) \\(start profile failed: .+\\)$`).exec(String(summary));
        assert.ok(match, `the summary names the one failure: ${String(summary)}`);
        const failed = profiles.find((profile) => profile.id === match[1]);
        assert.ok(failed, "the failed profile is one of the emulator's");
        assert.equal(valuesOf(messages, "each visit").length, profiles.length);
        assert.equal(valuesOf(messages, "error").length, 1);
        // A profile that never started has nothing to close: no close is sent for it.
        assert.deepEqual(
          requestsTo("/api/env/close")
            .map((request) => (request.body as { envId?: string }).envId)
            .sort(),
          profiles
            .filter((profile) => profile !== failed)
            .map((profile) => profile.id)
            .sort(),
        );
        assert.deepEqual(emulator.running(), []);
      });

      it("06 Every profile, N at a time (one at a time here): a profile that fails after it started is closed all the same, and counted once", async () => {
        const profiles = listedBy(listOf("06"));
        const first = profiles[0];
        assert.ok(first);
        // One at a time, so that the scripted failures land on the first profile: the Catch path is the same for any N.
        await deployWithMaxProfiles("1");
        try {
          // The first profile starts, then every read of its status gets HTTP 503: a read is sent again, up
          // to DEFAULT_RETRY.attempts times in all, and then its wait fails while its browser is open.
          emulator.script({ kind: "http503", api: "local", path: "/api/env/status", times: DEFAULT_RETRY.attempts });
          emulator.resetStats();
          const messages = await run(example("06"), "summary", { errors: true });

          const [summary] = valuesOf(messages, "summary");
          assert.match(String(summary), new RegExp(`^${profiles.length - 1} profiles visited, 1 failed: ${first.id} \\(profile status failed: .+\\)$`));
          assert.equal(valuesOf(messages, "each visit").length, profiles.length);
          assert.equal(valuesOf(messages, "error").length, 1);
          // The Catch path closed the failed profile before the next one started, and none is left open.
          assert.deepEqual(
            lifecycle(),
            profiles.flatMap((profile) => [`start ${profile.id}`, `close ${profile.id}`]),
          );
          assert.deepEqual(emulator.running(), []);
        } finally {
          await deployWithMaxProfiles("3");
        }
      });

      it("06 Every profile, N at a time (one at a time here): when closing a failed profile fails too, the profile is counted once, with both reasons", async () => {
        const profiles = listedBy(listOf("06"));
        const first = profiles[0];
        assert.ok(first);
        await deployWithMaxProfiles("1");
        try {
          // The first profile's status wait fails as above, and then the close on the Catch path gets HTTP
          // 503 (a close is never sent twice, so it fails): the second Catch node must send it on, once.
          // That profile stays open and keeps its place: the other profiles wait until it is closed below.
          emulator.script({ kind: "http503", api: "local", path: "/api/env/status", times: DEFAULT_RETRY.attempts });
          emulator.script({ kind: "http503", api: "local", path: "/api/env/close", times: 1 });
          emulator.resetStats();
          const from = sidebar.mark();
          const inject = example("06").find((node) => node.type === "inject");
          assert.ok(inject);
          assert.equal((await fetch(`${nodeRed.url}/inject/${inject.id}`, { method: "POST" })).status, 200);
          await sidebarUntil(
            () => sidebar.since(from, example("06")),
            (shown) => shown.filter((message) => message.name === "error").length >= 2,
            60_000,
            () => "the status failure and the close failure did not both show",
          );
          // Only the profile whose close failed runs, and it holds the one place: close it by hand.
          assert.deepEqual(
            emulator.running().map((session) => session.envId),
            [first.id],
          );
          const closed = await fetch(`${emulator.localUrl}/api/env/close`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ envId: first.id }) });
          assert.equal(closed.status, 200);
          const messages = await waitForSummary(from);

          const [summary] = valuesOf(messages, "summary");
          assert.match(
            String(summary),
            new RegExp(`^${profiles.length - 1} profiles visited, 1 failed: ${first.id} \\(profile status failed: .+; closing it failed too: close profile failed: .+\\)$`),
          );
          assert.equal(valuesOf(messages, "each visit").length, profiles.length);
          assert.equal(valuesOf(messages, "error").length, 2, "the status failure and the close failure, once each");
          assert.deepEqual(emulator.running(), []);
        } finally {
          await deployWithMaxProfiles("3");
        }
      });
    });
  });
});
