/** The limit: undici's own `request()` on a keep-alive pool, and the raw loop over every page. */
import { Pool } from "undici";

export const PAGE_PATH = "/api/env/page";
export const PAGE_BODY = { pageNo: 1, pageSize: 10 };

export interface RawClient {
  /** One POST /api/env/page with pageSize 10; the JSON reply parsed and checked. */
  listPage(): Promise<void>;
  close(): Promise<void>;
}

export function rawClient(localUrl: string): RawClient {
  const pool = new Pool(localUrl, { connections: 128, keepAliveTimeout: 10_000 });
  const body = JSON.stringify(PAGE_BODY);
  return {
    async listPage() {
      const response = await pool.request({ path: PAGE_PATH, method: "POST", headers: { "content-type": "application/json" }, body });
      const reply = (await response.body.json()) as { code: number };
      if (reply.code !== 0) throw new Error(`raw call failed: code ${reply.code}`);
    },
    close: () => pool.destroy(),
  };
}

/** Every page of the profile list, 100 at a time, one after another: what the node's `all` does by hand. */
export async function rawAllPages(localUrl: string, pageSize = 100): Promise<unknown[]> {
  const pool = new Pool(localUrl, { connections: 1, keepAliveTimeout: 10_000 });
  try {
    const items: unknown[] = [];
    for (let pageNo = 1; pageNo <= 100_000; pageNo++) {
      const response = await pool.request({ path: PAGE_PATH, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ pageNo, pageSize }) });
      const reply = (await response.body.json()) as { code: number; data: { pages: string; dataList: unknown[] } };
      if (reply.code !== 0) throw new Error(`raw page ${pageNo} failed: code ${reply.code}`);
      for (const item of reply.data.dataList) items.push(item);
      if (reply.data.dataList.length === 0 || pageNo >= Number(reply.data.pages)) break;
    }
    return items;
  } finally {
    await pool.destroy();
  }
}
