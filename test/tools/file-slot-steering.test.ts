import assert from "node:assert/strict";
import { nextLimit } from "../../tools/file-slot-steering";

describe("npm test: how many test files run at once follows the CPU", () => {
  const range = { min: 2, max: 8 };

  it("starts one more file while every slot is taken and the CPU has time to spare", () => {
    assert.equal(nextLimit(3, range, 0.5, 3), 4);
    assert.equal(nextLimit(3, range, 0.3, 3), 4);
  });

  it("starts none while a slot is free, or the CPU has little to spare", () => {
    assert.equal(nextLimit(3, range, 0.9, 2), 3, "a free slot: no file is waiting for one");
    assert.equal(nextLimit(3, range, 0.2, 3), 3);
  });

  it("lets one fewer run while the CPU is all but never idle, never below one a core", () => {
    assert.equal(nextLimit(5, range, 0.05, 5), 4);
    assert.equal(nextLimit(2, range, 0, 2), 2);
  });

  it("never goes past four a core", () => {
    assert.equal(nextLimit(8, range, 1, 8), 8);
  });
});
