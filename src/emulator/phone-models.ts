/**
 * The cloud-phone SKUs (the specification's IDs and Android versions) and the devices each offers:
 * what `brand/models` lists, and what `create` accepts as `brand` and `modelId`. The brands, models and
 * model IDs are the emulator's own: no source lists what a SKU offers, and the specification's
 * `brand/models` reply shows `brand` and `model` only, while it tells to take `create`'s `modelId`
 * from it; the emulator's reply so adds each model's `modelId` (docs/EMULATOR.md).
 */

export interface PhoneModel {
  brand: string;
  model: string;
  modelId: number;
}

export interface PhoneSku {
  skuId: string;
  android: string;
  /** The first is the SKU's device when a create names none (and the seeded phones'). */
  models: readonly [PhoneModel, ...PhoneModel[]];
}

export const PHONE_SKUS: readonly PhoneSku[] = [
  {
    skuId: "10002",
    android: "12",
    models: [
      { brand: "samsung", model: "SM-G991B", modelId: 1 },
      { brand: "samsung", model: "SM-A525F", modelId: 2 },
      { brand: "Xiaomi", model: "M2101K6G", modelId: 3 },
    ],
  },
  {
    skuId: "10013",
    android: "13",
    models: [
      { brand: "google", model: "Pixel 7", modelId: 4 },
      { brand: "samsung", model: "SM-S901B", modelId: 5 },
    ],
  },
  {
    skuId: "10005",
    android: "14",
    models: [
      { brand: "Xiaomi", model: "23049PCD8G", modelId: 6 },
      { brand: "OnePlus", model: "CPH2449", modelId: 7 },
    ],
  },
  {
    skuId: "10004",
    android: "15",
    models: [
      { brand: "samsung", model: "SM-S921B", modelId: 8 },
      { brand: "google", model: "Pixel 9", modelId: 9 },
    ],
  },
  {
    skuId: "10014",
    android: "15",
    models: [
      { brand: "google", model: "Pixel 8", modelId: 10 },
      { brand: "Xiaomi", model: "2311DRK48G", modelId: 11 },
    ],
  },
  {
    skuId: "10015",
    android: "16",
    models: [
      { brand: "OnePlus", model: "CPH2581", modelId: 12 },
      { brand: "samsung", model: "SM-S931B", modelId: 13 },
    ],
  },
];

export function skuOf(skuId: string): PhoneSku | undefined {
  return PHONE_SKUS.find((sku) => sku.skuId === skuId);
}

/** What `brand/models` lists for a SKU: nothing for an unknown one (the specification). */
export function modelsOf(skuId: string): PhoneModel[] {
  return (skuOf(skuId)?.models ?? []).map((model) => ({ ...model }));
}

/** The device the emulator gives a SKU's phones when a create names none (and the seeded phones). */
export function deviceOfSku(skuId: string): { android: string; brand: string; model: string } | undefined {
  const sku = skuOf(skuId);
  return sku && { android: sku.android, brand: sku.models[0].brand, model: sku.models[0].model };
}

/**
 * The model a create's `brand` and `modelId` name among those `brand/models` lists for its SKU (the
 * specification: a combination it does not list is rejected): a brand alone takes its first model, a
 * model ID alone its brand, neither the SKU's first device. A string says why none fits.
 */
export function modelNamed(sku: PhoneSku, brand: string | undefined, modelId: number | undefined): PhoneModel | string {
  const listed = (models: readonly PhoneModel[], show: (model: PhoneModel) => string): string => [...new Set(models.map(show))].join(", ");
  const ofBrand = brand === undefined ? sku.models : sku.models.filter((model) => model.brand === brand);
  if (ofBrand.length === 0) return `brand ${brand} is not one that brand/models lists for skuId ${sku.skuId} (${listed(sku.models, (model) => model.brand)})`;
  if (modelId === undefined) return ofBrand[0] ?? sku.models[0];
  const found = ofBrand.find((model) => model.modelId === modelId);
  if (found) return found;
  const models = listed(ofBrand, (model) => `${model.modelId} ${model.brand} ${model.model}`);
  return brand === undefined
    ? `modelId ${modelId} is not one that brand/models lists for skuId ${sku.skuId} (${models})`
    : `modelId ${modelId} is not a ${brand} model that brand/models lists for skuId ${sku.skuId} (${models})`;
}
