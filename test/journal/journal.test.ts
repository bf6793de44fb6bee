import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Journal, JournalUnreadableError, writeAll } from "../../src/journal";

type Entry = { n: number; text?: string };

describe("journal: an append-only file of records, fsynced in group commits", () => {
  let folder: string;
  let file: string;
  const opened: Journal<Entry>[] = [];
  const openJournal = async (): Promise<{ journal: Journal<Entry>; records: Entry[]; cutBytes: number }> => {
    const result = await Journal.open<Entry>(file);
    opened.push(result.journal);
    return result;
  };

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "morelogin-journal-"));
    file = join(folder, "state", "batch-1.jsonl");
  });
  afterEach(async () => {
    for (const journal of opened.splice(0)) await journal.close().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  });

  it("creates its folder and file, and gives back every record in order after a reopen", async () => {
    const { journal, records } = await openJournal();
    assert.deepEqual(records, []);
    for (let n = 0; n < 5; n++) await journal.append({ n });
    await journal.close();
    const again = await openJournal();
    assert.deepEqual(
      again.records.map((record) => record.n),
      [0, 1, 2, 3, 4],
    );
    assert.equal(again.cutBytes, 0);
  });

  it("has a record in the file when its append resolves, without a close", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1, text: "out" });
    assert.equal(readFileSync(file, "utf8"), '{"n":1,"text":"out"}\n');
  });

  it("writes the appends of one turn with one write and one fdatasync", async () => {
    const { journal } = await openJournal();
    await Promise.all(Array.from({ length: 100 }, (_, n) => journal.append({ n })));
    assert.equal(journal.stats.syncs, 1);
    assert.equal(journal.stats.appends, 100);
    // Appends made while a commit is under way share the next one.
    const first = journal.append({ n: 100 });
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 50 }, (_, n) => journal.append({ n: 101 + n }));
    await Promise.all([first, ...later]);
    assert.ok(journal.stats.syncs <= 3, `${journal.stats.syncs} fdatasyncs for 151 appends in three turns`);
  });

  it("cuts a torn last record (a crash in the middle of a write) and goes on after it", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    await journal.append({ n: 2 });
    await journal.close();
    appendFileSync(file, '{"n":3,"te');
    const torn = await openJournal();
    assert.deepEqual(
      torn.records.map((record) => record.n),
      [1, 2],
    );
    assert.equal(torn.cutBytes, 10);
    await torn.journal.append({ n: 4 });
    await torn.journal.close();
    assert.deepEqual(
      (await openJournal()).records.map((record) => record.n),
      [1, 2, 4],
    );
  });

  it("cuts zeros a power loss left after the last record", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    await journal.close();
    appendFileSync(file, Buffer.alloc(4096));
    const again = await openJournal();
    assert.deepEqual(again.records, [{ n: 1 }]);
    assert.equal(again.cutBytes, 4096);
  });

  it("keeps a file with a corrupt record in the middle aside and says so, never reading it as empty", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    await journal.close();
    appendFileSync(file, 'garbage}\n{"n":3}\n');
    const before = readFileSync(file, "utf8");
    const error = await Journal.open<Entry>(file).then(
      () => assert.fail("a corrupt journal was opened"),
      (reason: unknown) => reason,
    );
    assert.ok(error instanceof JournalUnreadableError, String(error));
    assert.match(error.message, /line 2 is not a record/);
    assert.match(error.message, /kept as .*batch-1\.jsonl\.unreadable-/);
    assert.equal(existsSync(file), false);
    assert.equal(readFileSync(error.keptAs, "utf8"), before, "the file is kept as it was");
  });

  it("compacts into a snapshot (temp file, rename) that a reopen reads, with the appends made after it", async () => {
    const { journal } = await openJournal();
    for (let n = 0; n < 100; n++) await journal.append({ n, text: "x".repeat(50) });
    const big = journal.bytes;
    const during = journal.append({ n: 100 });
    const compacted = journal.compact([{ n: -1, text: "snapshot" }]);
    const after = journal.append({ n: 101 });
    await Promise.all([during, compacted, after]);
    assert.ok(journal.bytes < big / 10, `${journal.bytes} bytes after compaction, ${big} before`);
    await journal.close();
    assert.deepEqual(readdirSync(join(folder, "state")), ["batch-1.jsonl"], "no temp file left");
    assert.deepEqual((await openJournal()).records, [{ n: -1, text: "snapshot" }, { n: 101 }]);
  });

  it("reads the old file when a crash left a compaction's temp file behind", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    await journal.close();
    writeFileSync(`${file}.tmp`, '{"n":-1,"te');
    assert.deepEqual((await openJournal()).records, [{ n: 1 }]);
    assert.equal(existsSync(`${file}.tmp`), false);
  });

  it("is removed with its owner", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    await journal.remove();
    assert.equal(existsSync(file), false);
    await assert.rejects(journal.append({ n: 2 }), /closed/);
  });

  it("keeps its folder and file to their owner: they hold the items and the message that started a batch", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(folder, "state")).mode & 0o777, 0o700);
  });

  it("an append of no records resolves, as an append whose records are on disk", async () => {
    const { journal } = await openJournal();
    await journal.append();
    await journal.append({ n: 1 }, { n: 2 });
    await journal.append();
  });

  it("a file it cannot read now is left where it is and the error thrown, not moved aside as unreadable", async () => {
    mkdirSync(file, { recursive: true });
    await assert.rejects(openJournal(), (error: unknown) => !(error instanceof JournalUnreadableError) && (error as NodeJS.ErrnoException).code === "EISDIR");
    assert.deepEqual(readdirSync(join(folder, "state")), ["batch-1.jsonl"]);
  });

  it("a write that takes fewer bytes than given goes on with the rest, and one that takes none fails", async () => {
    const written: string[] = [];
    const chunky = {
      write: async (buffer: Buffer, offset = 0, length = buffer.length) => {
        const bytesWritten = Math.min(3, length);
        written.push(buffer.subarray(offset, offset + bytesWritten).toString());
        return { bytesWritten, buffer };
      },
    };
    await writeAll(chunky as never, Buffer.from('{"n":1}\n{"n":2}\n'));
    assert.equal(written.join(""), '{"n":1}\n{"n":2}\n');
    const full = { write: async (buffer: Buffer) => ({ bytesWritten: 0, buffer }) };
    await assert.rejects(writeAll(full as never, Buffer.from("x\n")), /took no more bytes after 0 of 2/);
  });
});

describe("journal: records appended without waiting", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "morelogin-journal-later-"));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("go with the next group commit, before the records of the next append that is awaited", async () => {
    const file = join(folder, "j.jsonl");
    const { journal } = await Journal.open<Entry>(file);
    journal.appendLater({ n: 1 });
    journal.appendLater({ n: 2 });
    await journal.append({ n: 3 }, { n: 4 });
    assert.equal(readFileSync(file, "utf8"), '{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n');
    assert.equal(journal.stats.syncs, 1);
    await journal.close();
  });
});
