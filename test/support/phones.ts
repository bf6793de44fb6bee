import assert from "node:assert/strict";
import type { CloudPhone, Emulator } from "../../src/emulator";
import { call, dataOf, type PageShape } from "./http";
import { waitUntil } from "./wait-until";

/** Requests to one emulator's cloud-phone routes, and its seeded phones handed out one per test. */
export function phonesOf(emulator: () => Emulator) {
  const local = (path: string, body: unknown) => call(emulator().localUrl, `/api/cloudphone${path}`, { body });
  const status = async (id: string): Promise<number> => dataOf<{ envStatus: number }>(await local("/info", { id })).envStatus;
  const listed = async (id: string): Promise<CloudPhone | undefined> => dataOf<PageShape<CloudPhone>>(await local("/page", { pageNo: 1, pageSize: 100 })).dataList.find((p) => p.id === id);
  /** The seeded phones are powered off (2) or on (4); each test takes one of the state it needs. */
  const taken = new Set<string>();
  const phoneIn = (envStatus: number): string => {
    const phone = emulator().data.cloudPhones.find((p) => p.envStatus === envStatus && !taken.has(p.id));
    assert.ok(phone, `a free phone in state ${envStatus}`);
    taken.add(phone.id);
    return phone.id;
  };
  /** Waits until the phone is in `envStatus`; returns how long that took. */
  const reaches = async (id: string, envStatus: number): Promise<number> => {
    const from = performance.now();
    await waitUntil(
      () => status(id),
      (value) => value === envStatus,
      `phone ${id} is in state ${envStatus}`,
      15_000,
    );
    return performance.now() - from;
  };
  return { local, status, listed, phoneIn, reaches };
}
