import { ENDPOINTS, type EndpointDefinition, type EndpointName } from "./endpoints";
import { MoreLoginInputError } from "./errors";
import { assertNoUnsafeIntegers, isPlainObject, normalizeId, positiveInteger } from "./values";

export type RequestBody = Record<string, unknown>;

const isBlank = (value: unknown): boolean => value === undefined || value === null || value === "";
const isMissing = (value: unknown): boolean => isBlank(value) || (Array.isArray(value) && value.length === 0);

function idList(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new MoreLoginInputError(`${field} must be an array of decimal ID strings`);
  return value.map((item, index) => normalizeId(item, `${field}[${index}]`));
}

/**
 * Checks a body against an endpoint's rules before anything is sent: IDs stay decimal strings, page
 * values are positive integers, required fields are there (with the endpoint's defaults for those the
 * API requires and a caller may leave out), and no number has lost precision.
 * Fields the client does not know pass through unchanged, so newer API fields work.
 */
export function prepareBody(definition: EndpointDefinition, body: unknown = {}): RequestBody {
  if (!isPlainObject(body)) throw new MoreLoginInputError("the request body must be a JSON object");
  const prepared: RequestBody = { ...body };
  for (const field of definition.idFields ?? []) {
    if (isBlank(prepared[field])) delete prepared[field];
    else prepared[field] = normalizeId(prepared[field], field);
  }
  for (const field of [definition.pageField, definition.pageField ? "pageSize" : undefined]) {
    if (!field) continue;
    if (isBlank(prepared[field])) delete prepared[field];
    else prepared[field] = positiveInteger(prepared[field], field);
  }
  if ("uniqueId" in prepared) {
    if (isBlank(prepared.uniqueId)) delete prepared.uniqueId;
    else prepared.uniqueId = positiveInteger(prepared.uniqueId, "uniqueId");
  }
  for (const field of definition.idListFields ?? []) {
    if (isBlank(prepared[field])) delete prepared[field];
    else prepared[field] = idList(prepared[field], field);
  }
  for (const [field, value] of Object.entries(definition.defaults ?? {})) {
    if (isBlank(prepared[field])) prepared[field] = value;
  }
  const missing = (definition.required ?? []).filter((field) => isMissing(prepared[field]));
  if (missing.length > 0) throw new MoreLoginInputError(`${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing`);
  const oneOf = definition.requiresOneOf;
  if (oneOf?.every((field) => isMissing(prepared[field]))) {
    throw new MoreLoginInputError(`${oneOf.join(" or ")} is missing`);
  }
  assertNoUnsafeIntegers(prepared);
  return prepared;
}

/** The JSON a checked body is sent as: the object, or for an API that takes a bare array, that list. */
export function bodyJson(definition: EndpointDefinition, prepared: RequestBody): string {
  return JSON.stringify(definition.sendsList === undefined ? prepared : prepared[definition.sendsList]);
}

/**
 * A body checked against one endpoint's rules and turned into JSON once, for calls that repeat it
 * (a node whose settings are all fixed): `client.call(endpoint, prepared)` then skips both steps.
 */
export class PreparedBody {
  private constructor(
    readonly endpoint: EndpointName,
    readonly json: string,
  ) {}

  /** Throws the MoreLoginInputError that `call()` would throw for this body. */
  static for(endpoint: EndpointName, body: unknown = {}): PreparedBody {
    const definition: EndpointDefinition = ENDPOINTS[endpoint];
    if (definition.method !== "POST") throw new MoreLoginInputError(`${endpoint} takes no body`);
    return new PreparedBody(endpoint, bodyJson(definition, prepareBody(definition, body)));
  }
}
