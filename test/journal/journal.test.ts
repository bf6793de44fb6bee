import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitMarker, Journal, JournalUnreadableError, writeAll } from "../../src/journal";

type Entry = { n: number; text?: string };

/** A commit as the journal writes it: its record lines, then its marker. */
const committed = (text: string): string => `${text}${commitMarker(text)}`;
/** What a new journal file starts with: the marker of an empty commit. */
const EMPTY = commitMarker("");

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
    assert.equal(readFileSync(file, "utf8"), `${EMPTY}${committed('{"n":1,"text":"out"}\n')}`);
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

  it("cuts the last commit a power loss tore with a hole, even with intact records after it, and keeps the ones before", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    await journal.append({ n: 2 });
    await journal.close();
    const durable = readFileSync(file).length;
    // The last group commit, never fsynced: its first page came back as zeros, the rest as written.
    appendFileSync(file, Buffer.concat([Buffer.alloc(4096), Buffer.from('{"n":3}\n{"n":4}\n')]));
    const again = await openJournal();
    assert.deepEqual(
      again.records.map((record) => record.n),
      [1, 2],
    );
    assert.ok(again.cutBytes > 0);
    assert.equal(readFileSync(file).length, durable, "the torn commit is cut from the file");
    assert.deepEqual(readdirSync(join(folder, "state")), ["batch-1.jsonl"], "nothing moved aside");
    await again.journal.append({ n: 5 });
    await again.journal.close();
    assert.deepEqual(
      (await openJournal()).records.map((record) => record.n),
      [1, 2, 5],
    );
  });

  it("cuts the last commit when its marker reached the disk but a page before it did not", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    await journal.close();
    const lost = '{"n":2,"text":"on a page that was not written"}\n{"n":3}\n';
    appendFileSync(file, `${"\0".repeat(lost.indexOf("\n") + 1)}{"n":3}\n${commitMarker(lost)}`);
    const again = await openJournal();
    assert.deepEqual(again.records, [{ n: 1 }]);
    assert.ok(again.cutBytes > 0);
    assert.deepEqual(readdirSync(join(folder, "state")), ["batch-1.jsonl"], "nothing moved aside");
  });

  it("reads a file from before the commit markers as before (each good line committed) and frames what follows", async () => {
    mkdirSync(join(folder, "state"));
    writeFileSync(file, '{"n":1}\n{"n":2}\n{"n":3,"te');
    const old = await openJournal();
    assert.deepEqual(
      old.records.map((record) => record.n),
      [1, 2],
    );
    assert.equal(old.cutBytes, 10);
    await old.journal.append({ n: 4 });
    await old.journal.close();
    assert.deepEqual(
      (await openJournal()).records.map((record) => record.n),
      [1, 2, 4],
    );
  });

  it("keeps a file with a corrupt record in a commit before the last marker aside and says so, never reading it as empty", async () => {
    const { journal } = await openJournal();
    await journal.append({ n: 1 });
    await journal.close();
    appendFileSync(file, committed('garbage}\n{"n":3}\n'));
    appendFileSync(file, committed('{"n":4}\n'));
    const before = readFileSync(file, "utf8");
    const error = await Journal.open<Entry>(file).then(
      () => assert.fail("a corrupt journal was opened"),
      (reason: unknown) => reason,
    );
    assert.ok(error instanceof JournalUnreadableError, String(error));
    assert.match(error.message, /line 4 is not a record, and records follow it/);
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

  it("ends a compaction's snapshot with a commit marker, and a reopen reads it with nothing cut", async () => {
    const { journal } = await openJournal();
    for (let n = 0; n < 10; n++) await journal.append({ n });
    await journal.compact([{ n: -1 }, { n: -2 }]);
    await journal.close();
    assert.equal(readFileSync(file, "utf8"), committed('{"n":-1}\n{"n":-2}\n'));
    const again = await openJournal();
    assert.deepEqual(again.records, [{ n: -1 }, { n: -2 }]);
    assert.equal(again.cutBytes, 0);
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

  it("an append of no records resolves at once and writes nothing: no empty commit, no fdatasync", async () => {
    const { journal } = await openJournal();
    await journal.append();
    await journal.append({ n: 1 }, { n: 2 });
    await journal.append();
    assert.equal(readFileSync(file, "utf8"), `${EMPTY}${committed('{"n":1}\n{"n":2}\n')}`, "one commit, of the two records");
    assert.equal(journal.stats.syncs, 1, "one fdatasync: the empty appends cost none");
    const reopened = await Journal.open<Entry>(file);
    opened.push(reopened.journal);
    assert.deepEqual(reopened.records, [{ n: 1 }, { n: 2 }]);
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
    assert.equal(readFileSync(file, "utf8"), `${EMPTY}${committed('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n')}`);
    assert.equal(journal.stats.syncs, 1);
    await journal.close();
  });
});
