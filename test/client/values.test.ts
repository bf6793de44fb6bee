import assert from "node:assert/strict";
import { runInNewContext } from "node:vm";
import { asError, describeValue, isErrorValue, isPlainObjectValue, messageOf, MoreLoginInputError } from "../../src/client";
import { clientFor, requests, useEmulator } from "../support/emulator";

/**
 * Node-RED runs a function node's code in its own vm context: what it builds there has that context's
 * Object.prototype, Array, Date and Error. `fromFunctionNode` makes values the same way.
 */
const fromFunctionNode = (code: string): unknown => runInNewContext(code);

describe("client: values built in another realm (a function node)", () => {
  it("a plain object is an object literal, a JSON.parse result or Object.create(null), from this realm or another", () => {
    const plain: Array<[string, unknown]> = [
      ["a literal", { envId: "1" }],
      ["a literal from a function node", fromFunctionNode('({ envId: "1" })')],
      ["JSON.parse in a function node", fromFunctionNode("JSON.parse('{\"pageSize\": 2}')")],
      ["Object.create(null)", Object.create(null)],
      ["Object.create(null) in a function node", fromFunctionNode("Object.create(null)")],
      ["an empty literal from a function node", fromFunctionNode("({})")],
    ];
    for (const [name, value] of plain) assert.equal(isPlainObjectValue(value), true, name);
  });

  it("class instances, Buffers, Dates, Maps, arrays and a class named Object are not plain, from any realm", () => {
    class Profile {
      envId = "1";
    }
    const notPlain: Array<[string, unknown]> = [
      ["a class instance", new Profile()],
      ["a class instance from a function node", fromFunctionNode('class Profile { constructor() { this.envId = "1"; } }; new Profile()')],
      ["a Buffer", Buffer.from("1")],
      ["a Date", new Date(0)],
      ["a Date from a function node", fromFunctionNode("new Date(0)")],
      ["a Map", new Map([["envId", "1"]])],
      ["a Map from a function node", fromFunctionNode('new Map([["envId", "1"]])')],
      ["an array", ["1"]],
      ["an array from a function node", fromFunctionNode('["1"]')],
      ["a Uint8Array from a function node", fromFunctionNode("new Uint8Array(2)")],
      ["an instance of a class named Object", fromFunctionNode("(() => { class Object { constructor() { this.envId = '1'; } } return new Object(); })()")],
      ["an object whose prototype is an object", Object.create({ envId: "1" })],
      ["an object whose prototype has no constructor", Object.create(Object.create(null))],
      ["null", null],
      ["a string", '{"envId": "1"}'],
    ];
    for (const [name, value] of notPlain) assert.equal(isPlainObjectValue(value), false, name);
  });

  it("describes what it was given by kind, never by an object's content, with the right article", () => {
    assert.equal(describeValue(fromFunctionNode('({ apiKey: "s3cret" })')), "an object");
    assert.equal(describeValue({ apiKey: "s3cret" }), "an object");
    assert.equal(describeValue(fromFunctionNode("new Date(0)")), "an object");
    assert.equal(describeValue(fromFunctionNode('["s3cret"]')), "an array");
    assert.equal(describeValue(Buffer.from("s3cret")), "a Buffer");
    assert.equal(describeValue(undefined), "nothing");
    assert.equal(
      describeValue(() => 1),
      "a function",
    );
  });

  it("an Error from a function node is an Error, and its text is its message", () => {
    const error = fromFunctionNode('new TypeError("envId is missing")');
    assert.equal(error instanceof Error, false, "the premise: another realm's Error is no instance of this one");
    assert.equal(isErrorValue(error), true);
    assert.equal(messageOf(error), "envId is missing");
    assert.equal(isErrorValue(fromFunctionNode('({ message: "not an error" })')), false);
    assert.equal(messageOf("plain text"), "plain text");
  });

  it("anything thrown becomes an Error: an Error from any realm as it is, anything else with its text", () => {
    const error = fromFunctionNode('new TypeError("envId is missing")');
    assert.equal(asError(error), error);
    const local = new RangeError("too many");
    assert.equal(asError(local), local);
    assert.equal(asError("plain text").message, "plain text");
    assert.equal(asError(42).message, "42");
    assert.equal(asError(Object.create(null)).message, "unexpected failure", "an object without a text");
  });

  describe("calls with a body built in a function node", () => {
    const { emulator } = useEmulator({ profiles: 5 });

    it("a known endpoint takes it, page fields and all", async () => {
      const client = clientFor(emulator());
      try {
        const result = await client.call("listProfiles", fromFunctionNode("({ pageNo: 1, pageSize: 2 })") as Record<string, unknown>);
        assert.equal(result.data.dataList.length, 2);
      } finally {
        await client.close();
      }
    });

    it("a generic request takes an object from a function node, and refuses a Date", async () => {
      const client = clientFor(emulator());
      try {
        const page = await client.request({ api: "local", method: "POST", path: "/api/env/page", body: fromFunctionNode("({ pageNo: 1, pageSize: 3 })") });
        assert.equal((page.data as { dataList: unknown[] }).dataList.length, 3);
        await assert.rejects(
          client.request({ api: "local", method: "POST", path: "/api/env/page", body: fromFunctionNode("new Date(0)") }),
          (error: unknown) => error instanceof MoreLoginInputError && /the request body must be a JSON object or array/.test(error.message),
        );
      } finally {
        await client.close();
      }
    });

    it("a BigInt in a known endpoint's body is bad input naming its field, and nothing is sent", async () => {
      const client = clientFor(emulator());
      const sent = () => requests(emulator(), "local POST /api/env/page");
      const before = sent();
      try {
        await assert.rejects(
          client.call("listProfiles", fromFunctionNode("({ pageNo: 1, extra: { count: 5n } })") as Record<string, unknown>),
          (error: unknown) => error instanceof MoreLoginInputError && /^body\.extra\.count is a BigInt, which JSON cannot carry/.test(error.message),
        );
        assert.equal(sent(), before);
      } finally {
        await client.close();
      }
    });
  });
});
