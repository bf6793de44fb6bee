/**
 * Settles as `pending` does, or rejects with `abortError()` as soon as `signal` fires, whichever comes
 * first. `pending` itself goes on: others may be waiting for the same work (a token, a login, a read).
 */
export function unlessAborted<T>(pending: Promise<T>, signal: AbortSignal, abortError: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
