import { MoreLoginInputError } from "../../../client";

/**
 * The shared spec's rules for a proxy body (`/proxyInfo/add` and `/update`), checked before anything is sent:
 * the integer fields as JSON integers within their ranges, `proxyType` for Luminati and Lumauto (7, 8),
 * `country` for 922S5 (17). Fields left out are not checked here: the endpoint table checks the required ones.
 */
const LIMITS: Record<string, { min: number; max: number }> = {
  proxyPort: { min: 1, max: 65535 },
  proxyProvider: { min: 0, max: 17 },
  proxyType: { min: 0, max: 3 },
  // 1 to 14 for add; update's example sends 0 ("usually 0 for plain"), so 0 passes for update.
  encryptionType: { min: 0, max: 14 },
  ipChangeAction: { min: 0, max: 1 },
};
const NEEDS_TYPE = [7, 8];
const NEEDS_COUNTRY = 17;

const isBlank = (value: unknown): boolean => value === undefined || value === null || value === "";

function integerIn(body: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const value = body[name];
  if (isBlank(value)) return undefined;
  const number = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < min || number > max) {
    throw new MoreLoginInputError(`${name} must be an integer from ${min} to ${max}`);
  }
  return number;
}

/** The body with its integer fields as numbers; throws an `input` error on a value the spec does not allow. */
export function checkedProxyBody(body: Record<string, unknown>, action: "add" | "update"): Record<string, unknown> {
  const checked = { ...body };
  for (const [name, { min, max }] of Object.entries(LIMITS)) {
    const value = integerIn(checked, name, name === "encryptionType" && action === "add" ? 1 : min, max);
    if (value !== undefined) checked[name] = value;
  }
  const provider = checked.proxyProvider;
  if (typeof provider === "number" && NEEDS_TYPE.includes(provider) && isBlank(checked.proxyType)) {
    throw new MoreLoginInputError(`proxyType (the protocol) is required for proxyProvider ${provider}`);
  }
  if (provider === NEEDS_COUNTRY && isBlank(checked.country)) throw new MoreLoginInputError(`country is required for proxyProvider ${NEEDS_COUNTRY}`);
  return checked;
}
