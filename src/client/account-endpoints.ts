import type { EndpointDefinition } from "./endpoint-definition";

/** The team's account on the Local API: its wallet and its webhook (the cloud-phone and shared specs; no Open API twin). */
export const ACCOUNT_ENDPOINTS = {
  balance: { api: "local", method: "GET", path: "/api/balance", idempotency: "read" },
  // MoreLogin desktop client 2.66.0 and later: an HTTPS, public callback address of 1 to 1024 characters.
  webhookConfig: { api: "local", method: "POST", path: "/api/webhook/config", idempotency: "write", required: ["callbackUrl", "enabled"] },
} as const satisfies Record<keyof AccountEndpointData, EndpointDefinition>;

/** The wallet as `GET /api/balance` answers it. */
export interface Balance {
  /** In cents. */
  balance: number;
  /** Minutes. */
  remainingDuration: number | string;
  remainingConcurrency: number | string;
}

/** What each of these endpoints' `data` holds. */
export interface AccountEndpointData {
  balance: Balance;
  /** The configuration as saved, echoed. */
  webhookConfig: { callbackUrl: string; enabled: boolean };
}
