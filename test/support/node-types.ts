/** The package's node types: the public contract the tests check against. */
export const OPERATION_TYPES = [
  "morelogin-list-profiles",
  "morelogin-start-profile",
  "morelogin-close-profile",
  "morelogin-list-cloud-phones",
  "morelogin-list-proxies",
  "morelogin-list-groups",
  "morelogin-list-tags",
  "morelogin-proxy",
  "morelogin-group",
  "morelogin-tag",
  "morelogin-list-apps",
  "morelogin-request",
  "morelogin-profile-status",
  "morelogin-profile",
  "morelogin-cloud-phone",
  "morelogin-automation",
];

/** Needs no config node: it drives the browser of a started profile over CDP. */
export const BROWSER_TYPE = "morelogin-browser";

/** No input: it polls MoreLogin and sends a message per change (its dialog is written by hand). */
export const WATCH_TYPE = "morelogin-watch";

/** Needs no config node: it works through a list a few items at a time (its dialog is written by hand). */
export const BATCH_TYPE = "morelogin-batch";

/** A config node (its dialog is written by hand): the Redis a batch node shares with other Node-REDs. */
export const QUEUE_TYPE = "morelogin-queue";

export const NODE_TYPES = ["morelogin-config", QUEUE_TYPE, ...OPERATION_TYPES, BROWSER_TYPE, WATCH_TYPE, BATCH_TYPE];
