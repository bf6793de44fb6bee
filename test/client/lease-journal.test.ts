import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JournalLeaseStore, type LeaseRecord } from "../../src/client";
import { commitMarker, JournalUnreadableError } from "../../src/journal";

const lease = (id: string, until: number): LeaseRecord => ({ kind: "profiles", id, api: "local", since: 1_000, port: "50123", until, seconds: 60, owner: "start" });

describe("client: the leases' journal", () => {
  let folder: string;
  let file: string;
  const stores: JournalLeaseStore[] = [];
  const open = (): JournalLeaseStore => {
    const store = new JournalLeaseStore(file);
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "morelogin-lease-journal-"));
    file = join(folder, "morelogin", "leases-server.journal");
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  });

  it("a journal never written loads as nothing; what was saved last comes back after a reopen", async () => {
    const first = open();
    assert.equal(await first.load(), undefined, "never written: a 0.4 store may hand over its leases");
    await first.save([lease("a", 5_000), lease("b", 6_000)]);
    await first.save([lease("b", 9_000)]);
    await first.close();
    const again = open();
    assert.deepEqual(await again.load(), [lease("b", 9_000)]);
    await again.save([]);
    await again.close();
    assert.deepEqual(await open().load(), [], "written, even if it holds no lease now");
  });

  it("stays small over many saves: it is compacted as it grows, and loses nothing", async () => {
    const store = open();
    await store.load();
    const held = Array.from({ length: 20 }, (_, index) => lease(`p${index}`, 0));
    for (let round = 1; round <= 2_000; round++) {
      held[round % held.length] = lease(`p${round % held.length}`, round);
      await store.save(held);
    }
    await store.close();
    // Each save appends about 130 bytes: without compaction this would be some 260 kB.
    assert.ok(statSync(file).size <= 80 * 1024, `${statSync(file).size} bytes`);
    const back = await open().load();
    assert.deepEqual(
      [...(back ?? [])].sort((a, b) => a.id.localeCompare(b.id)),
      [...held].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it("a journal that cannot be read is kept aside, said, and a new one takes the leases from then on", async () => {
    mkdirSync(join(folder, "morelogin"), { recursive: true });
    const commit = `not a record\n${JSON.stringify({ put: [lease("a", 1)] })}\n`;
    writeFileSync(file, `${commit}${commitMarker(commit)}`);
    const store = open();
    await assert.rejects(store.load(), JournalUnreadableError);
    assert.equal(readdirSync(join(folder, "morelogin")).filter((name) => name.includes(".unreadable-")).length, 1, "kept aside");
    await store.save([lease("b", 2)]);
    await store.close();
    assert.deepEqual(await open().load(), [lease("b", 2)]);
  });

  it("is deleted with its config node", async () => {
    const store = open();
    await store.load();
    await store.save([lease("a", 1)]);
    assert.ok(existsSync(file));
    await store.remove();
    assert.equal(existsSync(file), false);
  });
});
