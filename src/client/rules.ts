/**
 * Rules the client checks with and the editor checks the same way before a flow is deployed: the
 * editor gets them as pattern sources through the config node's exported settings, so each rule is
 * written once, here.
 */
export const RULES = {
  /** A page number, page size or item limit written as text. */
  positiveInteger: /^[1-9]\d*$/,
  /** A pacing setting written as text: 0 (no limit) or more. */
  wholeNumber: /^\d{1,9}$/,
  /** A setting that Node-RED fills from the environment when it deploys the node. */
  envReference: /^\$\{(\w+)\}$/,
  /** The characters a request path may have: a path below the API's base, with an optional query. */
  relativePath: /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*(\?[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?$/,
  /** A `.` or `..` segment, which would climb out of the API's base path. */
  dotSegment: /(^|\/)\.\.?(\/|$)/,
  /** A host name of this machine, without IPv6 brackets and in lower case. */
  loopbackHost: /^(127(\.\d{1,3}){3}|localhost|.+\.localhost|::1|0:0:0:0:0:0:0:1)$/,
} as const;

export type RuleName = keyof typeof RULES;

/** The rules as the editor gets them: JSON carries no RegExp. */
export function ruleSources(): Record<RuleName, string> {
  return Object.fromEntries(Object.entries(RULES).map(([name, pattern]) => [name, pattern.source])) as Record<RuleName, string>;
}
