import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { parseCookies } from "../../src/browser/cookie-formats";
import { fileToUpload } from "../../src/browser/upload-file";
import { itemIdOf, originOf, storableItems } from "../../src/batch/items";
import { BatchRunner, type BatchTag } from "../../src/batch/runner";
import { LocalBatchWork } from "../../src/batch/local-work";
import { idsOf, targetIds } from "../../src/nodes/lib/profile/ids";
import { phoneIds } from "../../src/nodes/lib/cloud-phone/target";
import { asError } from "../../src/client";
import { profileBody, requireProfile, whyNotAProfile } from "../../src/nodes/lib/profile/body";
import { overlay, overlayDeep } from "../../src/nodes/lib/shell/properties";
import type { BatchProgress } from "../../src/batch/progress";
import { translator } from "../support/catalog";
import { waitUntil } from "../support/wait-until";

/**
 * The node layer's checks of msg.payload with values a function node builds: Node-RED runs its code in a
 * vm context of its own, so an object literal there has another Object.prototype, and `new Date()`,
 * `new Uint8Array()` and `new Error()` are that context's. (Its Buffer is this realm's.)
 */
const fromFunctionNode = (code: string): unknown => runInNewContext(code);
/** An array made by mapping a function node's array is that realm's array: its items, as this realm's. */
const thisRealm = (list: readonly unknown[]): unknown[] => [...list];
const en = translator("en-US");
const zh = translator("zh-CN");
const SECRET = "s3cret-in-the-object";

describe("nodes: msg.payload built in a function node", () => {
  describe("profile payloads", () => {
    it("an object from a function node names the profile, and its other fields are laid over the body", () => {
      assert.deepEqual(profileBody({ isHeadless: false }, fromFunctionNode('({ envId: "1993244721490239488", isHeadless: true })')), {
        envId: "1993244721490239488",
        isHeadless: true,
      });
      assert.deepEqual(profileBody({}, fromFunctionNode('({ id: "7", envName: "Shop" })')), { envId: "7" }, "a profile item from list profiles");
      assert.deepEqual(profileBody({}, fromFunctionNode('({ envId: "7", debugPort: "9222" })')), { envId: "7" }, "start profile's reply");
      assert.doesNotThrow(() => requireProfile(profileBody({}, fromFunctionNode('({ envId: "7" })')), undefined, en));
    });

    it("an object without a profile ID is named as an object, never by what it holds", () => {
      const payload = fromFunctionNode(`({ name: "Shop 3", apiKey: "${SECRET}" })`);
      const text = "msg.payload is an object without `envId`, `uniqueId` or `id`, so it names no profile: add the profile ID as `envId`, or set it in the node";
      assert.throws(() => requireProfile(profileBody({}, payload), payload, en), { message: text });
      assert.equal(whyNotAProfile(payload, "many", en), text);
      assert.equal(whyNotAProfile(fromFunctionNode("({})"), "one", en), undefined, "an empty object names nothing: the 'no profile given' text applies");
    });

    it("every other kind of payload says what it is, in English and in Chinese, without showing an object's content", () => {
      const cases: Array<[string, unknown, string, string]> = [
        ["a Date", fromFunctionNode("new Date(0)"), "msg.payload is neither a profile ID nor a plain object (it is of type Date)", "其类型为 Date"],
        ["a Map", fromFunctionNode(`new Map([["apiKey", "${SECRET}"]])`), "(it is of type Map)", "其类型为 Map"],
        ["a class instance", fromFunctionNode(`class Shop { constructor() { this.apiKey = "${SECRET}"; } }; new Shop()`), "(it is of type Shop)", "其类型为 Shop"],
        ["a Uint8Array", fromFunctionNode("new Uint8Array(4)"), "(it is of type Uint8Array)", "其类型为 Uint8Array"],
        ["a Buffer", Buffer.from(SECRET), "msg.payload is a Buffer, not a profile ID", "msg.payload 是 Buffer，不是环境 ID"],
        ["an array", fromFunctionNode(`["${SECRET}"]`), "msg.payload is an array, and this node works on one profile", "msg.payload 是数组"],
        ["true", true, "msg.payload true is not a profile ID", "msg.payload true 不是环境 ID"],
        ["an object", fromFunctionNode(`({ apiKey: "${SECRET}" })`), "msg.payload is an object without `envId`", "msg.payload 是对象，但没有 `envId`"],
      ];
      for (const [name, payload, english, chinese] of cases) {
        const inEnglish = whyNotAProfile(payload, "one", en) ?? "";
        const inChinese = whyNotAProfile(payload, "one", zh) ?? "";
        assert.ok(inEnglish.includes(english), `${name}: ${inEnglish}`);
        assert.ok(inChinese.includes(chinese), `${name}: ${inChinese}`);
        for (const text of [inEnglish, inChinese]) assert.ok(!text.includes(SECRET) && !/ a object| a array/.test(text), `${name}: ${text}`);
      }
    });

    it("no profile at all is said in the flow's language", () => {
      assert.throws(() => requireProfile({}, "", en), {
        message: "no profile given: set the profile ID in the node, or send it as msg.payload (the ID as a string, a profile from list profiles, or {envId})",
      });
      assert.throws(() => requireProfile({}, "", zh), { message: "未指定环境：请在节点中设置环境 ID，或通过 msg.payload 发送（字符串形式的 ID、环境列表给出的环境，或 {envId}）" });
    });
  });

  describe("IDs and bodies", () => {
    it("arrays and items from a function node give their IDs; an object without one names the missing field", () => {
      assert.deepEqual(thisRealm(idsOf(fromFunctionNode('["1", "2"]'), "msg.payload", en)), ["1", "2"]);
      assert.deepEqual(thisRealm(idsOf(fromFunctionNode('[{ id: "3" }, { envId: "4" }]'), "msg.payload", en)), ["3", "4"]);
      assert.deepEqual(thisRealm(idsOf(fromFunctionNode('({ dataList: [{ id: "5" }] })'), "msg.payload", en)), ["5"]);
      assert.deepEqual(thisRealm(targetIds(fromFunctionNode('({ ids: ["6", "7"] })'), undefined, "group", en)), ["6", "7"]);
      assert.throws(() => idsOf(fromFunctionNode(`({ name: "${SECRET}" })`), "msg.payload", en), { message: "msg.payload has no `id` (or `envId`)" });
      assert.throws(() => idsOf(fromFunctionNode("new Date(0)"), "msg.payload", en), { message: "msg.payload must be a decimal ID string, got an object" });
      assert.throws(() => idsOf(fromFunctionNode(`({ name: "${SECRET}" })`), "msg.payload", zh), { message: "msg.payload 没有 `id`（或 `envId`）" });
    });

    it("no group, tag, proxy or cloud phone at all is said in the flow's language", () => {
      assert.throws(() => targetIds(fromFunctionNode("({})"), "", "tag", en), {
        message: "no tag given: set it in the node, or send msg.payload as an ID, an array of IDs, or the items from the list node",
      });
      assert.throws(() => targetIds(undefined, "", "proxy", zh), { message: /^未指定代理：/ });
      assert.throws(() => phoneIds("", fromFunctionNode("({ command: 'ls' })"), "ids", zh), { message: /^未指定云手机：/ });
      assert.deepEqual(thisRealm(phoneIds("", fromFunctionNode('({ ids: ["8"], command: "ls" })'), "ids", en).ids), ["8"]);
    });

    it("an object from a function node is laid over the node's fields, unknown fields and all, but never its prototype", () => {
      const payload = fromFunctionNode('JSON.parse(\'{"pageSize": 2, "newApiField": true, "__proto__": {"polluted": true}}\')') as Record<string, unknown>;
      const body = overlay({ pageNo: 1, pageSize: 20 }, payload);
      assert.deepEqual(body, { pageNo: 1, pageSize: 2, newApiField: true });
      assert.equal(Object.getPrototypeOf(body), Object.prototype);
    });

    it("create with settings lays a function node's object over the settings at every depth, never a prototype at any depth", () => {
      const payload = fromFunctionNode(
        'JSON.parse(\'{"envName": "shop 1", "advancedSetting": {"time_zone": {"value": "7"}, "__proto__": {"polluted": true}}, "__proto__": {"polluted": true}, "tagIds": null}\')',
      ) as Record<string, unknown>;
      const body = overlayDeep({ browserTypeId: 1, tagIds: ["3"], advancedSetting: { time_zone: { switcher: 2, value: "1" }, webrtc: { switcher: 1 } } }, payload);
      assert.deepEqual(body, { browserTypeId: 1, envName: "shop 1", advancedSetting: { time_zone: { switcher: 2, value: "7" }, webrtc: { switcher: 1 } } });
      assert.equal(Object.getPrototypeOf(body), Object.prototype);
      assert.equal(Object.getPrototypeOf(body.advancedSetting), Object.prototype);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  });

  describe("the browser node", () => {
    it("setCookies takes cookies built in a function node", () => {
      const cookies = fromFunctionNode('[{ name: "session", value: "abc", domain: "example.com", secure: true, partitionKey: "ignored" }]');
      assert.deepEqual([...parseCookies(cookies)], [{ name: "session", value: "abc", domain: "example.com", path: "/", expires: -1, httpOnly: false, secure: true }]);
    });

    it("a refused cookie names the field that is missing or of the wrong type, never a cookie's value", () => {
      const cases: Array<[string, string]> = [
        [`[{ value: "${SECRET}", domain: "example.com" }]`, "msg.payload[0] has no `name`"],
        [`[{ name: "session", domain: "example.com" }]`, "msg.payload[0] has no `value`"],
        [`[{ name: "a", value: "b", domain: "example.com" }, { name: "session", value: 42, domain: "example.com" }]`, "msg.payload[1].value must be a string, got a number"],
        [`[{ name: "session", value: { token: "${SECRET}" }, domain: "example.com" }]`, "msg.payload[0].value must be a string, got an object"],
        [`[{ name: 7, value: "${SECRET}", domain: "example.com" }]`, "msg.payload[0].name must be a string, got a number"],
        [`[{ name: "session", value: "${SECRET}" }]`, "msg.payload[0] has no `domain` (with a `path`) or `url`"],
        [`[{ name: "session", value: "${SECRET}", domain: 5 }]`, "msg.payload[0].domain must be a string, got a number"],
        [`[{ name: "session", value: "${SECRET}", domain: "example.com", expires: "soon" }]`, "msg.payload[0].expires must be seconds since 1970 (or -1 for a session cookie), got a string"],
        [
          `[{ name: "session", value: "${SECRET}", domain: "example.com", sameSite: "sometimes" }]`,
          "msg.payload[0].sameSite must be Strict, Lax or None (or an export's no_restriction, lax, strict or unspecified)",
        ],
        [`[new Date(0)]`, "msg.payload[0] must be a cookie object {name, value, domain, path, …}, got an object"],
        [
          `({ name: "session", value: "${SECRET}" })`,
          "msg.payload must be cookies: an array of cookie objects (as read cookies gives, or a browser extension's JSON export), its JSON text, a Netscape cookie file (cookies.txt) or a name=value; … header, got an object",
        ],
      ];
      for (const [code, text] of cases) assert.throws(() => parseCookies(fromFunctionNode(code)), { message: text }, code);
    });

    it("upload takes a Uint8Array built in a function node, as it takes a Buffer", async () => {
      const file = await fileToUpload({ payload: fromFunctionNode("new Uint8Array([104, 105])"), filename: "hi.txt" });
      assert.deepEqual({ name: file.name, mimeType: file.mimeType, text: file.buffer.toString("utf8") }, { name: "hi.txt", mimeType: "text/plain", text: "hi" });
      await assert.rejects(fileToUpload({ payload: fromFunctionNode("new Uint16Array(2)"), filename: "hi.txt" }), /upload needs a file/);
    });
  });

  describe("errors and the batch node", () => {
    it("an Error thrown in another realm reaches done() as that Error, not as its text wrapped again", () => {
      const error = fromFunctionNode('new RangeError("out of range")');
      assert.equal(asError(error), error);
      assert.equal(asError("plain text").message, "plain text");
    });

    it("items built in a function node keep their IDs and content in the context store", () => {
      const items = fromFunctionNode('[{ id: "11", envName: "a" }, { envId: "12" }, "13", { when: new Date(0) }]') as unknown[];
      assert.deepEqual(
        [...items].map((item, index) => itemIdOf(item, index)),
        ["11", "12", "13", "3"],
      );
      assert.deepEqual(storableItems(items), [{ id: "11", envName: "a" }, { envId: "12" }, "13", { when: "1970-01-01T00:00:00.000Z" }]);
      assert.deepEqual(originOf({ payload: items, flowRun: fromFunctionNode('({ shop: "a", at: new Date(0) })') }), { flowRun: { shop: "a", at: "1970-01-01T00:00:00.000Z" } });
    });

    it("an item that comes back with a function node's Error (or an object with a message) is a failure with that text", async () => {
      const sent: Array<Record<string, unknown>> = [];
      const done: BatchProgress[] = [];
      const folder = mkdtempSync(join(tmpdir(), "morelogin-realms-"));
      const work = await LocalBatchWork.open(join(folder, "batch.jsonl"), { resend: false, onError: (error) => assert.fail(error) });
      let id = 0;
      const runner = new BatchRunner({ parallel: 2, retries: 0, itemTimeoutMs: 0, resend: false }, work, {
        sendItem: (msg) => sent.push(msg),
        sendProgress: (topic, payload) => {
          if (topic === "done") done.push(payload);
        },
        status: () => undefined,
        failed: (error) => assert.fail(error),
        generateId: () => `id${++id}`,
        clone: (value) => structuredClone(value),
        now: () => Date.now(),
        t: en,
      });
      runner.begin();
      await runner.add(["a", "b"], {});
      await waitUntil(() => sent.length === 2, "both items out");
      const tagOf = (msg: Record<string, unknown> | undefined): BatchTag => {
        assert.ok(msg, "an item went out");
        return (msg.morelogin as { batch: BatchTag }).batch;
      };
      runner.back(tagOf(sent[0]), fromFunctionNode('new Error("the shop refused")'));
      runner.back(tagOf(sent[1]), fromFunctionNode('({ message: "no stock" })'));
      await waitUntil(() => done.length === 1, "the done summary");
      runner.stop();
      await work.close();
      rmSync(folder, { recursive: true, force: true });
      assert.deepEqual(
        done[0]?.failures.map(({ id: item, error }) => ({ item, error })),
        [
          { item: "a", error: "the shop refused" },
          { item: "b", error: "no stock" },
        ],
      );
    });
  });
});
