import assert from "node:assert/strict";
import { MoreLoginClient, MoreLoginResponseError } from "../../src/client";
import { parseJsonExact } from "../../src/client/exact-json";
import { rejection } from "../support/emulator";
import { startStubApi, type StubApi } from "../support/stub-api";

describe("client: integers beyond 2^53 in replies (parseJsonExact)", () => {
  it("turns unsafe integers into their exact decimal strings: in objects, nested, in arrays, negative", () => {
    const text = '{"id":1234567890123456789,"nested":{"ids":[18446744073709551615,-9223372036854775808]},"list":[{"envId":1690000000000000001}]}';
    assert.deepEqual(parseJsonExact(text), {
      id: "1234567890123456789",
      nested: { ids: ["18446744073709551615", "-9223372036854775808"] },
      list: [{ envId: "1690000000000000001" }],
    });
    assert.deepEqual(parseJsonExact("[12345678901234567890]"), ["12345678901234567890"], "first in an array");
    assert.deepEqual(parseJsonExact('{"a":-12345678901234567890}'), { a: "-12345678901234567890" }, "negative, alone");
  });

  it("keeps safe integers as numbers, 16 digits too, and makes 2^53 a string (2^53 + 1 would read as it)", () => {
    assert.deepEqual(parseJsonExact("[9007199254740991,-9007199254740991,1234567890123456,1000000000000000,0,7]"), [9007199254740991, -9007199254740991, 1234567890123456, 1000000000000000, 0, 7]);
    assert.deepEqual(parseJsonExact("[9007199254740992,9007199254740993,-9007199254740992]"), ["9007199254740992", "9007199254740993", "-9007199254740992"]);
  });

  it("keeps floats and exponents as numbers, however many digits", () => {
    const text = '{"a":12345678901234567.5,"b":1.2345678901234567e+25,"c":12345678901234567890e0,"d":1E21,"e":-1234567890123456789.0,"f":0.12345678901234567890}';
    const parsed = parseJsonExact(text) as Record<string, unknown>;
    assert.deepEqual(parsed, JSON.parse(text));
    for (const value of Object.values(parsed)) assert.equal(typeof value, "number");
  });

  it("keeps -0 as -0", () => {
    const parsed = parseJsonExact('{"a":-0,"b":[-0],"big":12345678901234567890}') as { a: number; b: number[] };
    assert.ok(Object.is(parsed.a, -0));
    assert.ok(Object.is(parsed.b[0], -0));
  });

  it("leaves strings alone: digits, escaped quotes and backslashes before numbers", () => {
    const text = String.raw`{"a":"x\":12345678901234567890","b":"\\","c":12345678901234567890,"d":"\\\":[12345678901234567890,","e":"\u0022:12345678901234567890","f":"12345678901234567890"}`;
    assert.deepEqual(parseJsonExact(text), {
      a: 'x":12345678901234567890',
      b: "\\",
      c: "12345678901234567890",
      d: '\\":[12345678901234567890,',
      e: '":12345678901234567890',
      f: "12345678901234567890",
    });
  });

  it("finds unsafe integers after whitespace and line breaks", () => {
    assert.deepEqual(parseJsonExact('{ "a" :\n\t 12345678901234567890 , "b" : [ \r\n -12345678901234567890 ] }'), { a: "12345678901234567890", b: ["-12345678901234567890"] });
  });

  it("reads a reply that is one unsafe integer as its exact string", () => {
    assert.equal(parseJsonExact("12345678901234567890"), "12345678901234567890");
    assert.equal(parseJsonExact(" -12345678901234567890 "), "-12345678901234567890");
    assert.equal(parseJsonExact("9007199254740991"), 9007199254740991);
  });

  it("reads every other JSON exactly as JSON.parse does, and refuses what JSON.parse refuses", () => {
    const texts = [
      '{"code":0,"msg":null,"data":{"current":"1","total":"25","dataList":[{"id":"1690000000000000001","envName":"p1"}]},"requestId":"abc"}',
      '{"a":[1,2.5,-3,true,false,null,"x"],"b":{},"c":[]}',
      '"just a string with 12345678901234567890 in it"',
      '{"price":1234567890.1234567,"when":1700000000000}',
      "[]",
    ];
    for (const text of texts) assert.deepEqual(parseJsonExact(text), JSON.parse(text), text);
    for (const broken of ['{"a":12345678901234567890', '{"a":12345678901234567890,}', "{\"a\":'1'}"]) {
      assert.throws(() => parseJsonExact(broken), SyntaxError, broken);
    }
  });
});

describe("client: integers beyond 2^53 reach the caller exactly", () => {
  let stub: StubApi;
  let client: MoreLoginClient;
  before(async () => {
    stub = await startStubApi();
    client = new MoreLoginClient({ localUrl: stub.url, retry: { attempts: 1 } });
  });
  after(async () => {
    await client.close();
    await stub.close();
  });
  beforeEach(() => stub.reset());

  const REPLY =
    '{"code":0,"msg":"success","data":{"current":1,"total":2,"dataList":[{"id":1690000000000000001,"groupId":-1690000000000000002,"score":0.5,"count":3,"tags":[{"id":9007199254740993}],"envRemark":"id \\"1690000000000000001\\", 12345678901234567890"}]},"requestId":"r1","serverTime":12345678901234567890}';

  it("a known call gets them as strings in its data; safe integers, floats and strings are untouched", async () => {
    stub.otherwise = { body: REPLY };
    const result = await client.call("listProfiles", {});
    assert.deepEqual(result.data, {
      current: 1,
      total: 2,
      dataList: [{ id: "1690000000000000001", groupId: "-1690000000000000002", score: 0.5, count: 3, tags: [{ id: "9007199254740993" }], envRemark: 'id "1690000000000000001", 12345678901234567890' }],
    });
    assert.equal(result.requestId, "r1");
  });

  it("the generic request's whole reply keeps them exact, top-level extras included", async () => {
    stub.otherwise = { body: REPLY };
    const result = await client.request({ api: "local", method: "POST", path: "/api/env/page", body: {}, wholeReply: true });
    const reply = result.data as { serverTime: unknown; data: { dataList: { id: unknown }[] } };
    assert.equal(reply.serverTime, "12345678901234567890");
    assert.equal(reply.data.dataList[0]?.id, "1690000000000000001");
  });

  it("a bare JSON reply to the generic request keeps them exact too", async () => {
    stub.otherwise = { body: '{"status":"ok","pid":12345678901234567890}' };
    const result = await client.request({ api: "local", method: "POST", path: "/status" });
    assert.deepEqual(result.data, { status: "ok", pid: "12345678901234567890" });
  });

  it("a bare number as the reply to the generic request stays exact", async () => {
    stub.otherwise = { body: "12345678901234567890" };
    const result = await client.request({ api: "local", method: "POST", path: "/status" });
    assert.equal(result.data, "12345678901234567890");
  });

  it("a reply that is cut off after an unsafe integer is still a response error", async () => {
    stub.otherwise = { body: '{"code":0,"data":{"id":12345678901234567890' };
    const error = await rejection(client.call("listProfiles", {}));
    assert.ok(error instanceof MoreLoginResponseError, String(error));
    assert.match(error.message, /^Local API answered HTTP 200 with a body that is not JSON: /);
  });
});
