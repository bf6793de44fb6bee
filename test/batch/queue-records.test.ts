import assert from "node:assert/strict";
import {
  decodeCounts,
  decodeFailures,
  decodeHeader,
  decodeInterruptions,
  decodeListMeta,
  encodeListMeta,
  headerFlag,
  startedHeaderArgs,
  UnreadableRecordError,
} from "../../src/batch/queue/redis-records";

const KEY = "morelogin:q:batch:header:b1";

/** The header hash START_NEXT writes for list `b1`: the list's meta in the field named first, then the other fields. */
function startedHeader(meta: string, startedAt = "2025-01-01T00:00:00.000Z"): Record<string, string> {
  const [metaField, ...pairs] = startedHeaderArgs(startedAt);
  const hash: Record<string, string> = { [metaField ?? ""]: meta };
  for (let at = 0; at + 1 < pairs.length; at += 2) hash[pairs[at] ?? ""] = pairs[at + 1] ?? "";
  return hash;
}

/** `act` fails with an UnreadableRecordError that names `key` and says `why`. */
function assertUnreadable(act: () => unknown, key: string, why: RegExp): void {
  assert.throws(act, (error: unknown) => {
    assert.ok(error instanceof UnreadableRecordError, `an UnreadableRecordError, not ${String(error)}`);
    assert.equal(error.key, key);
    assert.ok(error.message.includes(key), `the message names the key: ${error.message}`);
    assert.match(error.message, why);
    return true;
  });
}

describe("batch: the queue's records in Redis, read back checked", () => {
  const meta = encodeListMeta({ id: "b1", total: 3, origin: { topic: "list" } });

  it("a header as START_NEXT writes it reads back as the batch, its flags as set", () => {
    const hash = { ...startedHeader(meta), ...headerFlag("paused", true) };
    assert.deepEqual(decodeHeader(KEY, "b1", hash), {
      batch: { id: "b1", total: 3, startedAt: "2025-01-01T00:00:00.000Z", paused: true, cancelled: false, origin: { topic: "list" } },
      enqueued: false,
    });
  });

  it("a header without a list's meta is no batch yet", () => {
    assert.equal(decodeHeader(KEY, "b1", {}), undefined);
  });

  it("a malformed or foreign header fails naming its key, not later with a TypeError", () => {
    assertUnreadable(() => decodeHeader(KEY, "b1", startedHeader("{not json")), KEY, /not JSON/);
    assertUnreadable(() => decodeHeader(KEY, "b1", startedHeader("[1, 2]")), KEY, /not a JSON object/);
    assertUnreadable(() => decodeHeader(KEY, "b1", startedHeader(JSON.stringify({ id: "b1", origin: {} }))), KEY, /total is not a whole number/);
    assertUnreadable(() => decodeHeader(KEY, "b1", startedHeader(JSON.stringify({ id: "b1", total: 3, origin: "x" }))), KEY, /origin is not an object/);
    assertUnreadable(() => decodeHeader(KEY, "b1", startedHeader(encodeListMeta({ id: "b2", total: 3, origin: {} }))), KEY, /describes list b2/);
    assertUnreadable(() => decodeHeader(KEY, "b1", { ...startedHeader(meta), paused: "yes" }), KEY, /paused is neither/);
    const { startedAt: _startedAt, ...noStart } = startedHeader(meta);
    assertUnreadable(() => decodeHeader(KEY, "b1", noStart), KEY, /no startedAt/);
  });

  it("a list's meta, the entries of a batch's lists and its counts are checked too", () => {
    assert.deepEqual(decodeListMeta("m", meta), { id: "b1", total: 3, origin: { topic: "list" } });
    assertUnreadable(() => decodeListMeta("morelogin:q:batch:meta:b1", '{"id": 1}'), "morelogin:q:batch:meta:b1", /id is not a text/);
    assert.deepEqual(decodeFailures("f", ['{"id":"a","attempt":2,"error":"refused"}']), [{ id: "a", attempt: 2, error: "refused" }]);
    assertUnreadable(() => decodeFailures("f", ['{"id":"a","attempt":"2","error":"refused"}']), "f", /attempt is not a whole number/);
    assert.deepEqual(decodeInterruptions("i", ['{"id":"a","attempt":1}', '{"id":"b","attempt":1,"worker":"w1"}']), [
      { id: "a", attempt: 1 },
      { id: "b", attempt: 1, worker: "w1" },
    ]);
    assert.deepEqual(decodeCounts("c", { done: "2", interrupted: "1" }), { done: 2, failed: 0, timedOut: 0, interrupted: 1, cancelled: 0, running: 0, waiting: 0 });
    assertUnreadable(() => decodeCounts("c", { done: "two" }), "c", /done is not a whole number/);
  });
});
