import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { QueueTiming } from "../queue-timing";
import { PREFIX, type BatchKeys } from "./keys";
import type { ItemJob } from "./redis-records";

/** Where the Redis is and how to log in to it. */
export interface RedisLogin {
  /** `redis://` or `rediss://` (TLS); a password belongs in `password`, not here. */
  url: string;
  username?: string;
  password?: string;
}

/** This Node-RED in one queue: its connections, the keys of the queue's records and its name among the workers. */
export interface QueueLink {
  /** Commands; BullMQ's queue and worker share it. */
  client: Redis;
  /** Listens for the changes other Node-REDs announce. */
  subscriber: Redis;
  queue: Queue<ItemJob>;
  worker: Worker<ItemJob>;
  keys: BatchKeys;
  me: string;
}

/** How long a close waits for the connections to quit cleanly before it cuts them. */
const CLOSE_WAIT_MS = 2000;

/** Connects (in the background: Redis may come later); BullMQ's worker takes jobs only when asked. */
export function openLink(login: RedisLogin, queueName: string, keys: BatchKeys, me: string, resend: boolean, timing: QueueTiming): QueueLink {
  const client = connect(login);
  const subscriber = client.duplicate();
  const queue = new Queue<ItemJob>(queueName, { connection: client, prefix: PREFIX });
  const worker = new Worker<ItemJob>(queueName, null, {
    connection: client,
    prefix: PREFIX,
    name: me,
    autorun: false,
    lockDuration: timing.lockMs,
    stalledInterval: timing.stalledCheckMs,
    maxStalledCount: resend ? 1 : 0,
  });
  return { client, subscriber, queue, worker, keys, me };
}

/**
 * Closes every connection once `leaving` is done, cutting those that have not quit within CLOSE_WAIT_MS;
 * at once when the connection is not up (Redis never reached, or lost): its QUIT would only wait for it.
 */
export async function closeLink(link: QueueLink, leaving: Promise<unknown>): Promise<void> {
  const connected = link.client.status === "ready";
  const quit = leaving.then(() => Promise.allSettled([link.worker.close(true), link.queue.close(), link.subscriber.quit(), link.client.quit()]));
  if (connected) await Promise.race([quit, new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
  // Not waited for: whatever it meets is moot once the connections are cut below.
  else quit.catch(() => undefined);
  link.subscriber.disconnect();
  link.client.disconnect();
}

function connect(login: RedisLogin): Redis {
  const secure = login.url.startsWith("rediss:");
  return new Redis(login.url, {
    username: login.username || undefined,
    password: login.password || undefined,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(200 * times, 2000),
    ...(secure ? { tls: {} } : {}),
  });
}
