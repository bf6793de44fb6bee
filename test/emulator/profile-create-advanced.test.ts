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
});
