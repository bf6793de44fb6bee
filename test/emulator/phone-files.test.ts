import assert from "node:assert/strict";
import { dataOf, expectError } from "../support/http";
import { useEmulator } from "../support/emulator";
import { phonesOf } from "../support/phones";
import { waitUntil } from "../support/wait-until";

/** Files to and from a cloud phone, as the official CLI's `api` passthrough reaches them. */

describe("emulator: cloud phone files", () => {
  const { emulator } = useEmulator({ cloudPhones: 12, appInstallMs: 100 });
  const { local: post, phoneIn } = phonesOf(emulator);

  it("signed URL, PUT, upload/file (0, then 1), then the file downloads (10, then 20) as a data: URL of its bytes", async () => {
    const id = phoneIn(4);
    const { presignedUrl } = dataOf<{ presignedUrl: string }>(await post("/upload/file/signedUrl", { id, fileName: "note.txt" }));
    assert.ok(presignedUrl.startsWith(`${emulator().localUrl}/`), "the upload URL is the emulator's own");
    expectError(await post("/upload/file", { id, url: presignedUrl, uploadDest: "/sdcard/Download" }), 200, 99001);
    assert.equal((await fetch(presignedUrl, { method: "PUT", body: "hello phone" })).status, 200);

    const upload = dataOf<{ id: string; fileId: string; status: number }>(await post("/upload/file", { id, url: presignedUrl, uploadDest: "/sdcard/Download" }));
    assert.deepEqual([upload.id, upload.status], [id, 0]);
    expectError(await post("/download", { id, filePath: "/sdcard/Download/note.txt" }), 200, 33507);
    await waitUntil(
      async () => dataOf<{ status: number } | null>(await post("/upload/file/result", { id, fileId: upload.fileId })),
      (result) => result?.status === 1,
      "the upload lands",
      15_000,
    );
    assert.equal(dataOf(await post("/upload/file/result", { id, fileId: "123" })), null);

    const { downId } = dataOf<{ downId: string }>(await post("/download", { id, filePath: "/sdcard/Download/note.txt" }));
    const done = await waitUntil(
      async () => dataOf<{ status: number; downUrl?: string }>(await post("/download/result", { id, downId })),
      (result) => result.status === 20,
      "the download succeeds",
      15_000,
    );
    assert.equal(done.downUrl, `data:application/octet-stream;base64,${Buffer.from("hello phone").toString("base64")}`);
  });

  it("needs a running phone (33301); a live-streaming upload must be MP4; setKeyBox takes an .xml path", async () => {
    const off = phoneIn(2);
    expectError(await post("/upload/file/signedUrl", { id: off, fileName: "a.txt" }), 200, 33301);
    const id = phoneIn(4);
    expectError(await post("/upload/file", { id, url: "https://files.example.com/a.txt", uploadDest: "/sdcard", uploadType: 2 }), 200, 99001);
    assert.equal(dataOf<{ status: number }>(await post("/upload/file", { id, url: "https://files.example.com/clip.mp4", uploadDest: "/sdcard", uploadType: 2 })).status, 0);
    assert.equal(dataOf(await post("/setKeyBox", { id, filePath: "/sdcard/Download/keybox.xml" })), true);
    expectError(await post("/setKeyBox", { id, filePath: "/sdcard/Download/keybox.txt" }), 200, 99001);
  });
});
