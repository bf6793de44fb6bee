import assert from "node:assert/strict";
import { call, dataOf, expectError, type PageShape } from "../support/http";
import { useEmulator } from "../support/emulator";

/** `/api/env/create/advanced`, which the official CLI reaches through its `api` passthrough. */

describe("emulator: advanced profile creation", () => {
  const { emulator } = useEmulator();
  const post = (path: string, body: unknown) => call(emulator().localUrl, path, { body });
  const count = async () => Number(dataOf<PageShape<unknown>>(await post("/api/env/page", { pageNo: 1, pageSize: 1 })).total);

  it("creates one profile with the fields sent, listed and in its detail; a name taken or a refused field creates nothing", async () => {
    const tag = emulator().data.tags[0];
    assert.ok(tag);
    const before = await count();
    const envId = dataOf<string>(
      await post("/api/env/create/advanced", { browserTypeId: 1, operatorSystemId: 1, envName: "Advanced 1", envRemark: "made whole", tagIds: [tag.id], advancedSetting: { hardware_concurrency: 8 } }),
    );
    assert.match(envId, /^\d{19}$/);
    assert.equal(await count(), before + 1);
    const detail = dataOf<{ envName: string; envRemark: string; advancedSetting: { hardware_concurrency: number } }>(await post("/api/env/detail", { envId }));
    assert.deepEqual([detail.envName, detail.envRemark, detail.advancedSetting.hardware_concurrency], ["Advanced 1", "made whole", 8]);

    expectError(await post("/api/env/create/advanced", { browserTypeId: 1, operatorSystemId: 1, envName: "Advanced 1" }), 200, 99001);
    expectError(await post("/api/env/create/advanced", { browserTypeId: 1, operatorSystemId: 1, tagIds: ["1234567890123456789"] }), 200, 99001);
    expectError(await post("/api/env/create/advanced", { browserTypeId: 1 }), 200, 99001);
    assert.equal(await count(), before + 1, "nothing more was created");
  });

  it("keeps every field sent and shows it in detail, the ones it has no use for included", async () => {
    const [tag] = emulator().data.tags;
    const proxy = emulator().data.proxies[0];
    assert.ok(tag && proxy);
    const sent = {
      browserTypeId: 1,
      operatorSystemId: 2,
      envName: "Kept whole",
      envRemark: "every field",
      proxyId: proxy.id,
      tagIds: [tag.id],
      uaVersion: 141,
      cookies: '[{"name":"a","value":"1","domain":".example.com","path":"/"}]',
      startupParams: ["--lang=de"],
      disableAudio: 1,
      disableImg: 0,
      imgLimitSize: 300,
      accountInfo: { platformId: "9999", customerUrl: "https://shop.example", username: "buyer", password: "pw", otpSecret: "JBSWY3DPEHPK3PXP", siteId: "0" },
      afterStartupConfig: { afterStartup: 2, autoOpenUrls: ["https://example.com/"] },
      advancedSetting: { ua: "Mozilla/5.0 test", time_zone: { switcher: 2, value: "1" }, web_rtc: { switcher: 4 }, hardware_concurrency: 12, memery_device: 4, do_not_track: 1, mobile_device: "42" },
      newerField: { kept: true },
    };
    const envId = dataOf<string>(await post("/api/env/create/advanced", sent));
    const detail = dataOf<Record<string, unknown>>(await post("/api/env/detail", { envId }));
    for (const name of [
      "browserTypeId",
      "operatorSystemId",
      "envName",
      "envRemark",
      "proxyId",
      "uaVersion",
      "cookies",
      "startupParams",
      "disableAudio",
      "disableImg",
      "imgLimitSize",
      "accountInfo",
      "afterStartupConfig",
      "advancedSetting",
      "newerField",
      "tagIds",
    ] as const) {
      const expected = name === "afterStartupConfig" ? { ...sent.afterStartupConfig, platformUrl: null } : sent[name];
      assert.deepEqual(detail[name], expected, name);
    }
    assert.deepEqual(
      (detail.tagInfos as { id: string }[]).map((info) => info.id),
      [tag.id],
    );
  });

  it("refuses with 99001, creating nothing, what the spec does not allow: enumerations, lengths, what a switcher or platform needs", async () => {
    const base = { browserTypeId: 1, operatorSystemId: 1 };
    const before = await count();
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ operatorSystemId: 1 }, /browserTypeId is required/],
      [{ ...base, envName: "n".repeat(101) }, /envName must be at most 100/],
      [{ ...base, envRemark: "r".repeat(1501) }, /envRemark must be at most 1500/],
      [{ ...base, groupName: "g".repeat(51) }, /groupName must be at most 50/],
      [{ ...base, accountInfo: { username: "u".repeat(65) } }, /accountInfo.username must be at most 64/],
      [{ ...base, accountInfo: { password: "p".repeat(51) } }, /accountInfo.password must be at most 50/],
      [{ ...base, accountInfo: { platformId: "9999" } }, /customerUrl is required when platformId is 9999/],
      [{ ...base, afterStartupConfig: { afterStartup: 5 } }, /afterStartup must be one of 1, 2, 3, 4/],
      [{ ...base, afterStartupConfig: { afterStartup: 2 } }, /autoOpenUrls is required/],
      [{ ...base, afterStartupConfig: { afterStartup: 3, autoOpenUrls: ["not a url"] } }, /autoOpenUrls\[0\] must be a valid URL/],
      [{ ...base, disableAudio: 2 }, /disableAudio must be one of 0, 1/],
      [{ ...base, startupParams: "--x" }, /startupParams must be an array of strings/],
      [{ ...base, advancedSetting: { web_rtc: { switcher: 6 } } }, /advancedSetting.web_rtc.switcher must be one of 1, 2, 3, 4, 5/],
      [{ ...base, advancedSetting: { canvas: { switcher: 3 } } }, /advancedSetting.canvas.switcher must be one of 1, 2/],
      [{ ...base, advancedSetting: { time_zone: { switcher: 2 } } }, /advancedSetting.time_zone.value is required when its switcher is 2/],
      [{ ...base, advancedSetting: { resolution: { switcher: 2 } } }, /advancedSetting.resolution.id is required/],
      [{ ...base, advancedSetting: { geo_location: { switcher: 1, base_on_ip: false, latitude: 1 } } }, /geo_location.longitude is required/],
      [{ ...base, advancedSetting: { hardware_concurrency: 5 } }, /hardware_concurrency must be one of 0, 2, 3, 4, 6, 8, 10, 12/],
      [{ ...base, advancedSetting: { memery_device: 16 } }, /memery_device must be one of 0, 2, 4, 6, 8/],
    ];
    for (const [body, message] of refusals) {
      const answer = await post("/api/env/create/advanced", body);
      expectError(answer, 200, 99001);
      assert.match(String((answer.json as { msg: unknown }).msg), message, JSON.stringify(body));
    }
    assert.equal(await count(), before, "nothing was created");
  });

  it("a name in use is refused with 99001 (assumed: the spec gives no code) and leaves one profile of that name", async () => {
    const body = { browserTypeId: 1, operatorSystemId: 1, envName: "Only once" };
    dataOf<string>(await post("/api/env/create/advanced", body));
    const answer = await post("/api/env/create/advanced", { ...body, envRemark: "second" });
    expectError(answer, 200, 99001);
    assert.match(String((answer.json as { msg: unknown }).msg), /a profile named Only once already exists/);
    const page = dataOf<PageShape<{ envName: string }>>(await post("/api/env/page", { pageNo: 1, pageSize: 100, envName: "Only once" }));
    assert.equal(page.dataList.filter((profile) => profile.envName === "Only once").length, 1);
  });
});
