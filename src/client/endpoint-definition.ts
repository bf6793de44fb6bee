import type { CapacityRole } from "./capacity";
import type { Idempotency } from "./retry";
import type { ApiName, HttpMethod } from "./types";

/** One endpoint of a MoreLogin API, with the rules the client applies to its calls. */
export interface EndpointDefinition {
  /** The API a call goes to unless it names the other one (see `twinPath`). */
  api: ApiName;
  method: HttpMethod;
  path: string;
  /** The path of the same operation on the other API, for endpoints both APIs have. */
  twinPath?: string;
  idempotency: Idempotency;
  /** The call's own timeout when it is not the ordinary one: launching a browser or a phone takes long. */
  timeoutMs?: number;
  /** Counts against the client's `concurrency`: a long operation that loads the machine or the account. */
  limited?: boolean;
  /** Starts or stops a profile or phone: counts against the config node's `maxProfiles` or `maxPhones`. */
  capacity?: CapacityRole;
  /** Fields always sent, with these values when the caller leaves them out (the API requires them). */
  defaults?: Readonly<Record<string, unknown>>;
  /** The field that carries the page number, for paged endpoints. */
  pageField?: "pageNo" | "pageNum";
  /** Fields that hold a MoreLogin ID and must stay decimal strings. */
  idFields?: readonly string[];
  /** Fields that hold a list of MoreLogin IDs: each item must be, and is sent as, a decimal string. */
  idListFields?: readonly string[];
  /** Each of these fields must be present (not blank, not an empty list): the spec marks them required. */
  required?: readonly string[];
  /** At least one of these fields must be present. */
  requiresOneOf?: readonly string[];
  /** The API takes this field's list as the whole body, a bare JSON array (callers still pass an object). */
  sendsList?: string;
  /** The reply carries its result in these top-level fields beside a null `data` (ua/get): the call's data is an object of them. */
  replyFields?: readonly string[];
}
