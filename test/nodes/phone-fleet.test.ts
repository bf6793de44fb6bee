import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Node, NodeMessage } from "node-red";
import type { MoreLoginClient } from "../../src/client";
import type { ApiName, CloudPhone } from "../../src/emulator";
import { modelsOf } from "../../src/emulator/phone-models";
import { CONFIG_ID, Collector, TAB, configNode, credentialsFor, helper, loadFlow, ownStatusCalls, stateDir, statusCalls, useNodeRed, type Msg } from "../support/node-red";
import { clearFaults, useEmulator } from "../support/emulator";
import { dataOf, type PageShape } from "../support/http";
import { waitUntil } from "../support/wait-until";
import { NO_PACING, assertInfo, assertNothingSent, failed, onlyBodyAt, refused, requestsAt, run, succeeded } from "../support/outcome";
import { phonesOf } from "../support/phones";

const PHONE = "morelogin-cloud-phone";
const OFF = 2;
const ON = 4;
/** A SKU billed per minute, and the documented monthly one (its new phones are unactivated). */
const SKU = "10002";
const MONTHLY_SKU = "10015";
const FIVE_MB = 5 * 1024 * 1024;
/** A boot or reset of the phones on the emulator's own clock, which the test moves past it. */
const BUSY_MS = 3_000;

/** A path on the node's API: the Local API's under /api, the Open API's without it. */
const on = (api: ApiName, path: string): string => (api === "local" ? `/api/cloudphone${path}` : `/cloudphone${path}`);

describe("nodes: cloud phone fleet (create, edit, delete, files) on both APIs", () => {
  // The emulator's fast timings: a phone is provisioned or boots in 0.3 s, a file lands in 0.1 s.
  const { emulator } = useEmulator({ cloudPhones: 30, phoneBootMs: 300, appInstallMs: 100 });
  const phones = phonesOf(emulator);
  const listed = async (): Promise<CloudPhone[]> => dataOf<PageShape<CloudPhone>>(await phones.local("/page", { pageNo: 1, pageSize: 100 })).dataList;
  /** A further flow in the same test: the one before is unloaded first. */
  const next = async (outcome: () => ReturnType<typeof run>) => {
    await helper.unload();
    return outcome();
  };
  const leased = (ids: readonly string[]): string[] =>
    clientOf()
      .leases.entries()
      .map((lease) => lease.id)
      .filter((id) => ids.includes(id))
      .sort();
  /** The phones among `ids` the config node's lease journal holds, as a restart would read the file. */
  const journaled = async (ids: readonly string[]): Promise<string[]> => {
    const held = new Set<string>();
    for (const line of (await readFile(join(stateDir, `leases-${CONFIG_ID}.journal`), "utf8")).split("\n")) {
      if (line === "" || line.startsWith("#")) continue;
      const change = JSON.parse(line) as { put?: Array<{ kind: string; id: string }>; drop?: string[] };
      for (const key of change.drop ?? []) held.delete(key);
      for (const record of change.put ?? []) held.add(`${record.kind}:${record.id}`);
    }
    return ids.filter((id) => held.has(`phones:${id}`)).sort();
  };
  const clientOf = (): MoreLoginClient => {
    const client = (helper.getNode(CONFIG_ID) as Node & { client?: MoreLoginClient }).client;
    assert.ok(client, "the config node has a client");
    return client;
  };

  useNodeRed(emulator, clearFaults);

  for (const api of ["local", "open"] as const) {
    describe(`${api === "local" ? "Local" : "Open"} API`, () => {
      it("create without wait answers the new IDs at once, with what to poll; the phones are then provisioned (off)", async () => {
        const msg = succeeded(await run(emulator(), { type: PHONE, api, action: "create", skuId: SKU, quantity: "2", quantityType: "num", envRemark: "fleet" }, { payload: "" }));
        assert.deepEqual(onlyBodyAt(emulator(), on(api, "/create")), { skuId: SKU, quantity: 2, envRemark: "fleet" });
        const ids = msg.payload as string[];
        assert.equal(ids.length, 2);
        assert.ok(ids.every((id) => /^\d+$/.test(id)));
        assert.deepEqual(msg.poll, { path: on(api, "/info"), bodies: ids.map((id) => ({ id })) });
        assertInfo(msg, { api, path: on(api, "/create") });
        const names = (await listed()).filter((phone) => ids.includes(phone.id));
        assert.deepEqual(
          names.map((phone) => phone.envRemark),
          ["fleet", "fleet"],
        );
        for (const id of ids) await phones.reaches(id, OFF);
      });

      it("create with wait and power-on replies each phone's info once it runs, under a lease", async () => {
        const msg = succeeded(
          await run(emulator(), { type: PHONE, api, action: "create", skuId: SKU, quantity: "2", quantityType: "num", wait: true, powerOnCreated: true, lease: "600" }, { payload: "" }),
        );
        const infos = msg.payload as Array<{ id: string; envStatus: number }>;
        assert.equal(infos.length, 2);
        assert.deepEqual(
          infos.map((phone) => phone.envStatus),
          [ON, ON],
        );
        for (const phone of infos) assert.equal(await phones.status(phone.id), ON);
        assert.deepEqual(
          requestsAt(emulator(), on(api, "/powerOn"))
            .map((entry) => (entry.body as { id: string }).id)
            .sort(),
          infos.map((phone) => phone.id).sort(),
        );
        assert.deepEqual(leased(infos.map((phone) => phone.id)), infos.map((phone) => phone.id).sort());
        assert.equal(msg.poll, undefined);
      });

      it("edit changes the phones named, with the body the spec gives (id: a list)", async () => {
        const ids = [phones.phoneIn(OFF), phones.phoneIn(OFF)];
        const msg = succeeded(await run(emulator(), { type: PHONE, api, action: "edit", envName: `renamed-${api}`, envRemark: "edited" }, { payload: ids }));
        assert.deepEqual(onlyBodyAt(emulator(), on(api, "/edit/batch")), { id: ids, envName: `renamed-${api}`, envRemark: "edited" });
        assert.equal(msg.payload, null);
        const changed = (await listed()).filter((phone) => ids.includes(phone.id));
        assert.deepEqual(
          changed.map((phone) => [phone.envName, phone.envRemark]),
          [
            [`renamed-${api}`, "edited"],
            [`renamed-${api}`, "edited"],
          ],
        );
      });

      it("delete takes one or many IDs; a phone never activated is gone from the page; a delete ends the leases of the phones it deleted, says so on the node that held them and in the journal", async () => {
        const created = succeeded(await run(emulator(), { type: PHONE, api, action: "create", skuId: MONTHLY_SKU, quantity: "2", quantityType: "num", wait: true }, { payload: "" }));
        const ids = (created.payload as Array<{ id: string }>).map((phone) => phone.id);
        const msg = succeeded(await next(() => run(emulator(), { type: PHONE, api, action: "delete" }, { payload: ids })));
        assert.deepEqual(onlyBodyAt(emulator(), on(api, "/delete/batch")), { ids });
        assert.equal(msg.payload, null);
        const left = (await listed()).map((phone) => phone.id);
        assert.ok(!ids.some((id) => left.includes(id)), "the deleted phones are gone from the page");

        // Three phones powered on under leases by one node, through the same config node's client: a batch
        // delete by another node ends two of the leases, a delete of the third the last; the node that holds
        // them says so, and the journal on disk no longer holds them once each delete has answered.
        const held = [phones.phoneIn(OFF), phones.phoneIn(OFF), phones.phoneIn(OFF)];
        const flow = [
          { id: TAB, type: "tab", label: "delete" },
          configNode(emulator(), NO_PACING),
          { id: "on", type: PHONE, z: TAB, server: CONFIG_ID, api, action: "powerOn", lease: "600", wires: [["out"]] },
          { id: "del", type: PHONE, z: TAB, server: CONFIG_ID, api, action: "delete", wires: [["out"]] },
          { id: "out", z: TAB, type: "helper" },
        ];
        await helper.unload();
        await loadFlow(flow, credentialsFor(emulator()));
        const out = new Collector("out");
        const powerOn = helper.getNode("on");
        const lastStatus = () => ownStatusCalls(powerOn).at(-1)?.text;
        for (const [index, id] of held.entries()) {
          powerOn.receive({ payload: id } as NodeMessage);
          await out.next(index + 1);
        }
        assert.deepEqual(leased(held), [...held].sort());
        assert.equal(lastStatus(), "power-on accepted · 3 leases");
        const [first, second, third] = held as [string, string, string];
        helper.getNode("del").receive({ payload: [first, second] } as NodeMessage);
        await out.next(4);
        assert.deepEqual(leased(held), [third], "the batch delete ended both leases");
        assert.deepEqual(await journaled(held), [third], "and the journal on disk has it");
        assert.equal(lastStatus(), "leases ended: 2 deleted · 1 lease");
        helper.getNode("del").receive({ payload: third } as NodeMessage);
        const [, , , , deleted] = await out.next(5);
        assert.equal((deleted as Msg).topic, third);
        assert.deepEqual(leased(held), [], "the lease ended with the delete");
        assert.deepEqual(await journaled(held), []);
        assert.equal(lastStatus(), `lease ended: ${third} deleted · 0 leases`);
      });

      it("an upload of 5 MB from msg.payload and its download are byte-identical", async () => {
        const id = phones.phoneIn(ON);
        const bytes = randomBytes(FIVE_MB);
        const up = succeeded(await run(emulator(), { type: PHONE, api, action: "uploadFile", phoneId: id, wait: true, uploadDest: "/sdcard/Download" }, { payload: bytes, filename: "/tmp/data.bin" }));
        const upload = up.payload as { id: string; fileId: string; status: number; path: string };
        assert.equal(upload.status, 1, "done");
        assert.equal(upload.path, "/sdcard/Download/data.bin");
        assert.deepEqual(onlyBodyAt(emulator(), on(api, api === "local" ? "/upload/file/signedUrl" : "/uploadUrl")), { id, fileName: "data.bin" });
        const registered = onlyBodyAt(emulator(), on(api, api === "local" ? "/upload/file" : "/uploadFile")) as Record<string, unknown>;
        assert.deepEqual(Object.keys(registered).sort(), ["id", "uploadDest", "url"]);
        assert.equal(registered.uploadDest, "/sdcard/Download");
        assert.equal(up.topic, id);

        const down = succeeded(await next(() => run(emulator(), { type: PHONE, api, action: "downloadFile", phoneId: id, filePath: "/sdcard/Download/data.bin", wait: true }, { payload: "" })));
        assert.deepEqual(onlyBodyAt(emulator(), on(api, "/download")), { id, filePath: "/sdcard/Download/data.bin" });
        assert.ok(Buffer.isBuffer(down.payload), "the file as a Buffer");
        assert.equal((down.payload as Buffer).length, FIVE_MB);
        assert.ok(bytes.equals(down.payload as Buffer), "byte-identical");
        assert.equal(down.filename, "data.bin");
      });

      it("an upload from a local file, without wait, answers what to poll; the download written to a file matches it", async () => {
        const dir = await mkdtemp(join(tmpdir(), "phone-fleet-"));
        try {
          const id = phones.phoneIn(ON);
          const source = join(dir, "keybox.xml");
          const bytes = Buffer.from(`<keybox api="${api}"/>`);
          await writeFile(source, bytes);
          const up = succeeded(await run(emulator(), { type: PHONE, api, action: "uploadFile", phoneId: id, localFile: source }, { payload: "" }));
          const upload = up.payload as { fileId: string; status: number; path: string };
          assert.equal(upload.status, 0, "uploading");
          assert.equal(upload.path, "/Download/keybox.xml");
          const resultPath = on(api, api === "local" ? "/upload/file/result" : "/uploadFileResult");
          assert.deepEqual(up.poll, { path: resultPath, bodies: [{ id, fileId: upload.fileId }] });
          const target = join(dir, "copy.xml");
          // The phone has the file once the upload's result says done (1): polled as a flow would (the state is shared by both APIs).
          await waitUntil(
            async () => dataOf<{ status: number }>(await phones.local("/upload/file/result", { id, fileId: upload.fileId })).status,
            (status) => status === 1,
            "the upload is done",
            15_000,
          );
          const down = succeeded(
            await next(() => run(emulator(), { type: PHONE, api, action: "downloadFile", phoneId: id, filePath: "/Download/keybox.xml", wait: true, saveTo: target }, { payload: "" })),
          );
          assert.deepEqual(down.payload, { id, filePath: "/Download/keybox.xml", savedTo: target, size: bytes.length });
          assert.ok(bytes.equals(await readFile(target)));
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      });

      it("set keybox, hide accessibility apps and brand/models send the spec's bodies and reply its data", async () => {
        const id = phones.phoneIn(ON);
        const keybox = succeeded(await run(emulator(), { type: PHONE, api, action: "setKeyBox", phoneId: id, filePath: "/sdcard/Download/keybox.xml" }, { payload: "" }));
        assert.deepEqual(onlyBodyAt(emulator(), on(api, "/setKeyBox")), { id, filePath: "/sdcard/Download/keybox.xml" });
        assert.equal(keybox.payload, true);

        const hidden = succeeded(await next(() => run(emulator(), { type: PHONE, api, action: "hideAccessibilityApps", packageName: "com.a.b, com.c.d" }, { payload: [id] })));
        assert.deepEqual(onlyBodyAt(emulator(), on(api, "/app/setHideAccessibilityApp")), { ids: [id], packageName: ["com.a.b", "com.c.d"] });
        assert.equal(hidden.payload, true);

        const models = succeeded(await next(() => run(emulator(), { type: PHONE, api, action: "models", skuId: SKU }, { payload: "" })));
        assert.deepEqual(onlyBodyAt(emulator(), on(api, "/brand/models")), { skuId: SKU });
        assert.deepEqual(models.payload, modelsOf(SKU));
      });
    });
  }

  describe("right after a power-on or a one-click new device (phones that boot or reset until the test moves the emulator's clock)", () => {
    // On the emulator's own clock: a call sent within the same flow surely meets the boot or the reset, on
    // a busy machine too, and the wait ends as soon as the test has seen the node wait (endBusy).
    const { emulator: slow } = useEmulator({ cloudPhones: 16, phoneBootMs: BUSY_MS, appInstallMs: 100, manualClock: true });
    const slowPhones = phonesOf(slow);
    const slowListed = async (): Promise<CloudPhone[]> => dataOf<PageShape<CloudPhone>>(await slowPhones.local("/page", { pageNo: 1, pageSize: 100 })).dataList;
    beforeEach(() => slow().resetStats());
    /**
     * Ends every boot, reset and file transfer under way once the node has been refused and waits: once it
     * has asked `path` (what it polls while it waits) `asked` times. It asks again a second later.
     */
    const endBusy = async (path: string, asked = 1): Promise<void> => {
      await waitUntil(() => requestsAt(slow(), path).length >= asked, `the node asked ${path} ${asked} times`);
      slow().advanceClock(BUSY_MS);
    };
    /**
     * Two phone nodes on phone `id` in one flow, the first (`first`: its action and properties) wired into
     * the second (`then`), the second into "out", with a Catch into "caught": one message sent to the first,
     * and what came out of the second.
     */
    const oneThenOther = async (
      api: ApiName,
      id: string,
      label: string,
      first: Record<string, unknown>,
      then: Record<string, unknown>,
    ): Promise<{ msg: NodeMessage | undefined; caught: Collector }> => {
      const flow = [
        { id: TAB, type: "tab", label },
        configNode(slow(), NO_PACING),
        { id: "first", type: PHONE, z: TAB, server: CONFIG_ID, api, phoneId: id, ...first, wires: [["then"]] },
        { id: "then", type: PHONE, z: TAB, server: CONFIG_ID, api, phoneId: id, ...then, wires: [["out"]] },
        { id: "out", z: TAB, type: "helper" },
        { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] },
        { id: "caught", z: TAB, type: "helper" },
      ];
      await loadFlow(flow, credentialsFor(slow()));
      const out = new Collector("out");
      const caught = new Collector("caught");
      helper.getNode("first").receive({ payload: "" } as NodeMessage);
      const [msg] = await out.next(1);
      return { msg, caught };
    };

    for (const api of ["local", "open"] as const) {
      describe(`${api === "local" ? "Local" : "Open"} API`, () => {
        it("delete right after newMachine waits out the reset (33327), then deletes", async () => {
          const id = slowPhones.phoneIn(ON);
          const [{ caught }] = await Promise.all([oneThenOther(api, id, "reset then delete", { action: "newMachine" }, { action: "delete" }), endBusy(on(api, "/info"))]);
          assert.deepEqual(caught.messages, []);
          const deletes = requestsAt(slow(), on(api, "/delete/batch"));
          assert.equal(deletes.length, 2, "the first delete met the reset (33327), the second went through");
          assert.ok(requestsAt(slow(), on(api, "/info")).length >= 1, "info was polled until the reset ended");
          const phone = (await slowListed()).find((p) => p.id === id);
          assert.equal(phone?.abnormalStatus, 4, "an activated phone stays listed, deactivated");
          assert.equal(phone?.envStatus, OFF);
        });

        it("power-off right after newMachine waits out the reset (33331)", async () => {
          const id = slowPhones.phoneIn(ON);
          await Promise.all([oneThenOther(api, id, "reset then stop", { action: "newMachine" }, { action: "powerOff" }), endBusy(on(api, "/info"))]);
          assert.equal(requestsAt(slow(), on(api, "/powerOff")).length, 2, "the first power-off met the reset (33331)");
          assert.equal(await slowPhones.status(id), OFF);
        });

        it("newMachine with wait replies the phone's info once the reset is over; without wait, what to poll", async () => {
          const id = slowPhones.phoneIn(ON);
          // The reset ends once the node has asked twice: it surely polled through it.
          const [outcome] = await Promise.all([run(slow(), { type: PHONE, api, action: "newMachine", phoneId: id, wait: true, brand: "samsung" }, { payload: "" }), endBusy(on(api, "/info"), 2)]);
          const waited = succeeded(outcome);
          assert.deepEqual(onlyBodyAt(slow(), on(api, "/newMachine")), { id, brand: "samsung" });
          assert.equal((waited.payload as { envStatus: number }).envStatus, ON);
          const polled = requestsAt(slow(), on(api, "/info")).length;
          assert.ok(polled >= 2, `info polled through the reset (${polled})`);
          const quick = succeeded(await next(() => run(slow(), { type: PHONE, api, action: "newMachine", phoneId: id }, { payload: "" })));
          assert.deepEqual(quick.poll, { path: on(api, "/info"), bodies: [{ id }] });
          slow().advanceClock(BUSY_MS);
          await slowPhones.reaches(id, ON);
        });

        it("an upload with wait right after a power-on waits while the phone boots (33301: keep polling), then uploads", async () => {
          const id = slowPhones.phoneIn(OFF);
          const dir = await mkdtemp(join(tmpdir(), "phone-fleet-"));
          try {
            const source = join(dir, "boot.txt");
            await writeFile(source, "booting");
            await helper.unload();
            const uploaded = oneThenOther(api, id, "power on then upload", { action: "powerOn" }, { action: "uploadFile", localFile: source, wait: true });
            const bootThenLanding = async (): Promise<void> => {
              await endBusy(on(api, "/info"));
              await endBusy(on(api, api === "local" ? "/upload/file/result" : "/uploadFileResult"));
            };
            const [{ msg }] = await Promise.all([uploaded, bootThenLanding()]);
            assert.ok(msg, "the upload answered");
            assert.equal((msg.payload as { status: number }).status, 1);
            assert.equal(requestsAt(slow(), on(api, api === "local" ? "/upload/file/signedUrl" : "/uploadUrl")).length, 2, "the first ask met a booting phone (33301)");
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        });
      });
    }
  });

  describe("refused before anything is sent", () => {
    it("an upload with neither a local file nor a Buffer in msg.payload", async () => {
      refused(
        await run(emulator(), { type: PHONE, api: "open", action: "uploadFile", phoneId: phones.phoneIn(ON) }, { payload: "" }),
        /upload a file: set the node's local file, or send the file as a Buffer in msg\.payload$/,
      );
      assertNothingSent(emulator());
    });

    it("a Buffer in msg.payload without a file name", async () => {
      refused(
        await run(emulator(), { type: PHONE, action: "uploadFile", phoneId: phones.phoneIn(ON) }, { payload: Buffer.from("x") }),
        /upload a file: name the file \(the node's file name, or msg\.filename\) when msg\.payload holds its bytes$/,
      );
      assertNothingSent(emulator());
    });

    it("hide accessibility apps with a package name that is a number, not text or a list", async () => {
      refused(
        await run(emulator(), { type: PHONE, action: "hideAccessibilityApps", phoneId: phones.phoneIn(ON), packageName: "5", packageNameType: "num" }, { payload: "" }),
        /packageName must be a package name, a comma-separated list of them or an array$/,
      );
      assertNothingSent(emulator());
    });

    it("an upload with wait to a phone that is off fails at once with MoreLogin's 33301: nothing would bring it up", async () => {
      const outcome = failed(await run(emulator(), { type: PHONE, action: "uploadFile", phoneId: phones.phoneIn(OFF), wait: true }, { payload: Buffer.from("x"), filename: "x.txt" }));
      assert.equal(outcome.error.code, 33301);
      assert.equal(requestsAt(emulator(), "/api/cloudphone/info").length, 1, "one look at the phone, no wait");
    });

    for (const action of ["screenshot", "adbInfo", "restart"]) {
      it(`${action} on the Open API names the Local API, where MoreLogin documents it`, async () => {
        refused(await run(emulator(), { type: PHONE, api: "open", action, phoneId: phones.phoneIn(ON) }, { payload: "" }), /is on the Local API only .*set the node's API to Local/);
        assertNothingSent(emulator());
      });
    }

    it("create with power-on and a lease it cannot read creates nothing (a phone created and powered on would be billed without a lease)", async () => {
      refused(await run(emulator(), { type: PHONE, action: "create", skuId: SKU, quantity: "1", quantityType: "num", powerOnCreated: true }, { payload: "", lease: "soon" }), /lease/);
      assertNothingSent(emulator());
    });

    it("an upload from a local file outside settings.js morelogin.uploadFolders, as the browser's upload refuses it", async () => {
      const work = await mkdtemp(join(tmpdir(), "morelogin-phone-upload-"));
      const allowed = join(work, "allowed");
      const outside = join(work, "secret.txt");
      await writeFile(outside, "outside");
      // settings.js entries the helper's settings type does not list.
      helper.settings({ fileWorkingDirectory: allowed, morelogin: { stateDir, uploadFolders: [allowed] } } as Parameters<typeof helper.settings>[0]);
      try {
        const outcome = failed(await run(emulator(), { type: PHONE, action: "uploadFile", phoneId: phones.phoneIn(ON), localFile: "../secret.txt" }, { payload: "" }));
        assert.equal(outcome.error.kind, "input");
        assert.match(outcome.text, /file "\.\.\/secret\.txt" is outside the folders upload may read \(settings\.js morelogin\.uploadFolders\)/);
        assertNothingSent(emulator());
      } finally {
        helper.settings({ morelogin: { stateDir } } as Parameters<typeof helper.settings>[0]);
        await rm(work, { recursive: true, force: true });
      }
    });

    it("create without a SKU", async () => {
      const outcome = failed(await run(emulator(), { type: PHONE, api: "open", action: "create", skuId: "" }, { payload: "" }));
      assert.equal(outcome.error.kind, "input");
      assertNothingSent(emulator());
    });
  });

  describe("pacing and caps", () => {
    it("creates go through the config node's requests per minute like every call", async () => {
      await loadFlow(
        [
          { id: TAB, type: "tab", label: "paced creates" },
          configNode(emulator(), { localRpm: "0", openRpm: "3" }),
          { id: "n1", type: PHONE, z: TAB, server: CONFIG_ID, api: "open", action: "create", skuId: SKU, wires: [["out"]] },
          { id: "out", z: TAB, type: "helper" },
        ],
        credentialsFor(emulator()),
      );
      const out = new Collector("out");
      const node = helper.getNode("n1");
      for (let i = 0; i < 5; i++) node.receive({ payload: "" } as NodeMessage);
      // The token request counts too: two creates fit in this minute, the other three wait.
      await out.next(2);
      await waitUntil(() => statusCalls(node).at(-1)?.text === "3 queued", "three creates are queued", 5_000);
      assert.equal(requestsAt(emulator(), "/cloudphone/create").length, 2);
    });

    it("a create takes no place under maxPhones: only a power-on does", async () => {
      const msg = succeeded(await run(emulator(), { type: PHONE, action: "create", skuId: SKU, quantity: "3", quantityType: "num", wait: true }, { payload: "" }, { config: { maxPhones: "1" } }));
      const infos = msg.payload as Array<{ envStatus: number }>;
      assert.deepEqual(
        infos.map((phone) => phone.envStatus),
        [OFF, OFF, OFF],
      );
      assert.deepEqual(leased((msg.payload as Array<{ id: string }>).map((phone) => phone.id)), [], "no lease: no phone was powered on");
      assert.equal(requestsAt(emulator(), "/api/cloudphone/powerOn").length, 0);
    });
  });
});
