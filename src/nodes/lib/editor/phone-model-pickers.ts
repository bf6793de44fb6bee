import { isPlainObjectValue, type ApiName, type CloudPhoneModel, type MoreLoginClient } from "../../../client";
import type { PickerItem } from "./picker-item";

/**
 * The Brand and Model pickers' answer. `need: "sku"` when neither a SKU nor a phone names the SKU;
 * `withoutId` lists the models MoreLogin named without a numeric ID, which the Model field cannot store.
 */
export interface PhoneModelChoices {
  items: PickerItem[];
  truncated: false;
  need?: "sku";
  withoutId?: string[];
}

/** What the phone node's dialog posts besides the config node's settings: its fixed SKU, phone and API. */
interface PhoneModelQuery {
  q: string;
  skuId?: string;
  phoneId?: string;
  api: ApiName;
}

const fixedText = (value: unknown): string | undefined => {
  const text = typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
  return /^\d+$/.test(text) ? text : undefined;
};

function queryOf(body: unknown): PhoneModelQuery {
  const posted = isPlainObjectValue(body) ? body : {};
  const skuId = fixedText(posted.skuId);
  const phoneId = fixedText(posted.phoneId);
  return {
    q: typeof posted.q === "string" ? posted.q.trim().toLowerCase() : "",
    api: posted.api === "open" ? "open" : "local",
    ...(skuId === undefined ? {} : { skuId }),
    ...(phoneId === undefined ? {} : { phoneId }),
  };
}

/** The numeric ID a `brand/models` row carries (`modelId`, else `id`), if any: the specification's rows carry none. */
export function modelIdOf(row: CloudPhoneModel): string | undefined {
  for (const field of ["modelId", "id"]) {
    const value = row[field];
    if ((typeof value === "number" && Number.isSafeInteger(value)) || (typeof value === "string" && /^\d+$/.test(value))) return String(value);
  }
  return undefined;
}

/** The SKU the dialog names: its SKU field (create), else the SKU of the phone it names (newMachine). */
async function skuOf(client: MoreLoginClient, query: PhoneModelQuery): Promise<string | undefined> {
  if (query.skuId !== undefined) return query.skuId;
  if (query.phoneId === undefined) return undefined;
  const { data } = await client.call("cloudPhoneInfo", { id: query.phoneId }, { api: query.api });
  return fixedText(data?.skuId);
}

/**
 * `pick/phoneBrands` and `pick/phoneModels`: what `brand/models` lists for the SKU, on the node's API.
 * Brands are stored by name; a model by the numeric ID its row carries, since `create` and `newMachine`
 * take a `modelId` number while the specification's rows name brand and model only (docs/CLOUD-PHONES.md).
 */
export async function phoneModelChoices(client: MoreLoginClient, body: unknown, kind: "brands" | "models"): Promise<PhoneModelChoices> {
  const query = queryOf(body);
  const skuId = await skuOf(client, query);
  if (skuId === undefined) return { items: [], truncated: false, need: "sku" };
  const { data } = await client.call("cloudPhoneModels", { skuId }, { api: query.api });
  const rows = (Array.isArray(data) ? data : []).filter((row) => query.q === "" || `${row.brand} ${row.model} ${modelIdOf(row) ?? ""}`.toLowerCase().includes(query.q));
  if (kind === "brands") {
    const brands = [...new Set(rows.map((row) => String(row.brand)))];
    const models = (brand: string) => rows.filter((row) => row.brand === brand).map((row) => String(row.model));
    return { items: brands.map((brand) => ({ id: brand, name: brand, detail: models(brand).join(", ") })), truncated: false };
  }
  const items: PickerItem[] = [];
  const withoutId: string[] = [];
  for (const row of rows) {
    const id = modelIdOf(row);
    if (id === undefined) withoutId.push(`${String(row.brand)} ${String(row.model)}`);
    else items.push({ id, name: String(row.model), detail: String(row.brand) });
  }
  return withoutId.length > 0 ? { items, truncated: false, withoutId } : { items, truncated: false };
}
