import type { Node } from "node-red";

/**
 * The part of Node-RED's context API used here: its callback forms, which every context store answers
 * (a persistent one, such as localfilesystem, answers later).
 */
export interface ContextLike {
  get(key: string, callback: (error: Error | undefined, value: unknown) => void): void;
  set(key: string, value: unknown, callback: (error?: Error) => void): void;
}

/** A context as promises: what is kept under a key, and keeping a value there (undefined clears the key). */
export interface ContextStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export function contextStore(context: ContextLike): ContextStore {
  return {
    get: (key) => new Promise((resolve, reject) => context.get(key, (error, value) => (error ? reject(error) : resolve(value)))),
    set: (key, value) => new Promise((resolve, reject) => context.set(key, value, (error) => (error ? reject(error) : resolve()))),
  };
}

/** A node's own context, in the default context store. */
export function nodeContext(node: Node): ContextStore {
  return contextStore(node.context());
}
