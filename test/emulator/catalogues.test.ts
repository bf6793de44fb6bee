import assert from "node:assert/strict";
import { call, dataOf, expectError } from "../support/http";
import { useEmulator } from "../support/emulator";
import { waitUntil } from "../support/wait-until";

/** The profile catalogues, screens and windows, and the multipart phone upload, as the official CLI's `api` passthrough reaches them. */

describe("emulator: catalogues, windows and the multipart upload", () => {
  const { emulator } = useEmulator({ cloudPhones: 12, appInstallMs: 100 });
  const post = (path: string, body: unknown) => call(emulator().localUrl, path, { body });
  const get = (path: string) => call(emulator().localUrl, path, { method: "GET" });

  it("ua/versions lists kernel versions per browser type; ua/get answers data null with a top-level ua and resolution", async () => {
    const kernels = dataOf<{ browserType: number; versions: number[] }[]>(await get("/api/env/advanced/ua/versions"));
    assert.deepEqual(
      kernels.map((k) => k.browserType),
      [1, 2],
    );
    assert.ok(kernels[0]?.versions.includes(142), "Chrome 142, the kernel start reports");

    const answer = await post("/api/env/advanced/ua/get", { os: 2, osVersion: "macOS 14", vendor: 1 });
    const reply = answer.json as { code: number; data: unknown; ua: string; resolution: { id: string; value: string } };
    assert.deepEqual([answer.status, reply.code, reply.data], [200, 0, null]);
    assert.match(reply.ua, /Macintosh.*Chrome\/142/);
    assert.deepEqual(Object.keys(reply.resolution).sort(), ["id", "value"]);
    expectError(await post("/api/env/advanced/ua/get", { vendor: 1 }), 200, 99001, "Request parameter error: os is required");
    expectError(await post("/api/env/advanced/ua/get", { os: 3, vendor: 2 }), 200, 99001);
    expectError(await post("/api/env/advanced/ua/get", { os: 7 }), 200, 99001);
  });

  it("resolution/list and base/list need os; platform/list and mobile/devices list their catalogues", async () => {
    const resolutions = dataOf<{ id: string; value: string }[]>(await post("/api/env/base/resolution/list", { os: 1, ua: "" }));
    assert.ok(resolutions.some((r) => r.value === "1920x1080"));
    assert.ok(resolutions.every((r) => /^\d+$/.test(r.id)));
    expectError(await post("/api/env/base/resolution/list", {}), 200, 99001, "Request parameter error: os is required");

    const lists = dataOf<{ time_zone_list: { value: string }[]; language_list: { value: string }[] }>(await post("/api/env/base/list", { os: 1 }));
    assert.ok(lists.time_zone_list.some((z) => z.value === "America/New_York"));
    assert.ok(lists.language_list.some((l) => l.value === "en-US"));
    expectError(await post("/api/env/base/list", {}), 200, 99001);

    const platforms = dataOf<{ name: string; isCustomer: boolean; sites: { host: string; isDefault: boolean }[] }[]>(await get("/api/system/platform/list"));
    const amazon = platforms.find((p) => p.name === "Amazon");
    assert.equal(amazon?.sites[0]?.isDefault, true);

    const devices = dataOf<{ id: string; name: string; resolution: string; os: number; platform: string }[]>(await post("/api/env/base/mobile/devices", {}));
    assert.deepEqual([...new Set(devices.map((d) => d.os))], [3, 4]);
  });

  it("getAllScreen lists the screen with a string id; arrangeWindows checks its type, profiles and screens", async () => {
    const screens = dataOf<{ id: string; isPrimaryScreen: boolean }[]>(await post("/api/env/getAllScreen", {}));
    assert.deepEqual(
      screens.map((s) => [typeof s.id, s.isPrimaryScreen]),
      [["string", true]],
    );
    const envId = emulator().data.profiles[0]?.id;
    const screenId = Number(screens[0]?.id);
    assert.equal(dataOf(await post("/api/env/arrangeWindows", { arrangeType: 2, envIds: [envId], screenIds: [screenId] })), null);
    assert.equal(dataOf(await post("/api/env/arrangeWindows", {})), null);
    expectError(await post("/api/env/arrangeWindows", { arrangeType: 3 }), 200, 99001);
    expectError(await post("/api/env/arrangeWindows", { envIds: ["123"] }), 200, 101);
    expectError(await post("/api/env/arrangeWindows", { screenIds: [screenId + 1] }), 200, 99001);
  });

  it("uploadFile takes multipart id, file and uploadDest; the file is then on the phone for download", async () => {
    const on = emulator().data.cloudPhones.find((p) => p.envStatus === 4);
    const off = emulator().data.cloudPhones.find((p) => p.envStatus === 2);
    assert.ok(on && off, "a phone that is on and one that is off");
    const upload = (fields: Record<string, string>, file?: string) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      if (file !== undefined) form.append("file", new Blob([file]), "hello.txt");
      return fetch(`${emulator().localUrl}/api/cloudphone/uploadFile`, { method: "POST", body: form }).then(async (res) => ({
        status: res.status,
        headers: res.headers,
        text: "",
        json: await res.json(),
      }));
    };

    assert.deepEqual(dataOf(await upload({ id: on.id, uploadDest: "/sdcard/Download/" }, "multipart bytes")), {});
    expectError(await upload({ id: on.id, uploadDest: "/sdcard/Download" }), 200, 99001, "Request parameter error: file is required");
    expectError(await upload({ id: on.id }, "x"), 200, 99001, "Request parameter error: uploadDest is required");
    expectError(await upload({ id: off.id, uploadDest: "/sdcard" }, "x"), 200, 33301);
    expectError(await post("/api/cloudphone/uploadFile", { id: on.id, uploadDest: "/sdcard" }), 200, 99001);

    const { downId } = dataOf<{ downId: string }>(await post("/api/cloudphone/download", { id: on.id, filePath: "/sdcard/Download/hello.txt" }));
    const done = await waitUntil(
      async () => dataOf<{ status: number; downUrl?: string }>(await post("/api/cloudphone/download/result", { id: on.id, downId })),
      (result) => result.status === 20,
      "the download succeeds",
      15_000,
    );
    assert.equal(done.downUrl, `data:application/octet-stream;base64,${Buffer.from("multipart bytes").toString("base64")}`);
  });
});
