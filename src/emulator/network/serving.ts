import type { Duplex } from "node:stream";
import type { ProxyExit } from "../types";

export interface ProxyCredentials {
  username: string;
  password: string;
}

/** What a protocol handler asks of its proxy, per connection: the row may change between two. */
export interface ProxyServing {
  /** Undefined when the proxy takes anyone (its row has no username and password). */
  credentials(): ProxyCredentials | undefined;
  exit(): ProxyExit;
  /** Waits as long as the proxy is slow, once per connection, before it answers. */
  delayAnswer(socket: Duplex): Promise<void>;
}

/** Compares as the row holds them; both must match exactly. */
export function credentialsMatch(expected: ProxyCredentials | undefined, username: string, password: string): boolean {
  return expected === undefined || (expected.username === username && expected.password === password);
}
