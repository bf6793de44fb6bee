/** Readers for request-body fields: each accepts only the types the API accepts, or throws ParamError. */

export class ParamError extends Error {
  constructor(message: string) {
    super(`Request parameter error: ${message}`);
    this.name = "ParamError";
  }
}

export type Body = Readonly<Record<string, unknown>>;

function field(body: Body, name: string): unknown {
  return Object.hasOwn(body, name) ? body[name] : undefined;
}

/** A positive integer sent as a JSON number or a numeric string; `fallback` when absent. */
export function readPositiveInt(body: Body, name: string, fallback: number): number {
  const value = field(body, name);
  if (value === undefined || value === null) return fallback;
  let parsed: number | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value)) parsed = value;
  if (typeof value === "string" && /^\d{1,15}$/.test(value)) parsed = Number(value);
  if (parsed === undefined || parsed < 1) throw new ParamError(`${name} must be a positive integer`);
  return parsed;
}

/** Throws for the first of `names` that the body lacks (absent or null), as the spec marks them required. */
export function requireFields(body: Body, names: readonly string[]): void {
  for (const name of names) {
    const value = field(body, name);
    if (value === undefined || value === null) throw new ParamError(`${name} is required`);
  }
}

/** A 64-bit ID sent as a decimal string or a JSON integer; undefined when absent or empty. */
export function readId(body: Body, name: string): string | undefined {
  const value = field(body, name);
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return BigInt(value).toString();
  throw new ParamError(`${name} must be a numeric ID`);
}

function integerOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^-?\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

/** An integer (an enum value) sent as a JSON number or a numeric string; undefined when absent or empty. */
export function readInteger(body: Body, name: string): number | undefined {
  const value = field(body, name);
  if (value === undefined || value === null || value === "") return undefined;
  const parsed = integerOf(value);
  if (parsed === undefined) throw new ParamError(`${name} must be an integer`);
  return parsed;
}

/** A list of integers; undefined when absent or empty (an empty list filters nothing). */
export function readIntegerList(body: Body, name: string): number[] | undefined {
  const value = field(body, name);
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value.map(integerOf) : [undefined];
  const integers = list.filter((item): item is number => item !== undefined);
  if (integers.length !== list.length) throw new ParamError(`${name} must be an array of integers`);
  return integers.length === 0 ? undefined : integers;
}

/** A string filter; undefined when absent or empty. */
export function readText(body: Body, name: string): string | undefined {
  const value = field(body, name);
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new ParamError(`${name} must be a string`);
  return value;
}

export function readBoolean(body: Body, name: string): boolean | undefined {
  const value = field(body, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw new ParamError(`${name} must be a boolean`);
  return value;
}

export function containsIgnoringCase(haystack: string | null, needle: string): boolean {
  return haystack?.toLowerCase().includes(needle.toLowerCase()) ?? false;
}

/** A string that may be empty (an empty remark clears it); undefined when absent or null. */
export function readString(body: Body, name: string): string | undefined {
  const value = field(body, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ParamError(`${name} must be a string`);
  return value;
}

/** A string the spec marks required: absent, null or empty is refused. */
export function requireText(body: Body, name: string): string {
  const value = readText(body, name);
  if (value === undefined) throw new ParamError(`${name} is required`);
  return value;
}

/** An ID the spec marks required. */
export function requireId(body: Body, name: string): string {
  const value = readId(body, name);
  if (value === undefined) throw new ParamError(`${name} is required`);
  return value;
}

/** A list of 64-bit IDs (decimal strings or JSON integers); undefined when absent or null. */
export function readIdList(body: Body, name: string): string[] | undefined {
  const value = field(body, name);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ParamError(`${name} must be an array of IDs`);
  return value.map((item, index) => {
    const id = readId({ id: item }, "id");
    if (id === undefined) throw new ParamError(`${name}[${index}] must be a numeric ID`);
    return id;
  });
}

/** A list of strings; undefined when absent or null. */
export function readStringList(body: Body, name: string): string[] | undefined {
  const value = field(body, name);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw new ParamError(`${name} must be an array of strings`);
  return value as string[];
}

/** A nested JSON object; undefined when absent or null. */
export function readObject(body: Body, name: string): Body | undefined {
  const value = field(body, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new ParamError(`${name} must be an object`);
  return value as Body;
}

/** An integer that must be one of `allowed`; undefined when absent or empty. */
export function readChoice(body: Body, name: string, allowed: readonly number[]): number | undefined {
  const value = readInteger(body, name);
  if (value !== undefined && !allowed.includes(value)) throw new ParamError(`${name} must be one of ${allowed.join(", ")}`);
  return value;
}
