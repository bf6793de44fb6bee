/**
 * `npx tsx bench/<phase>.ts`: runs one phase alone and prints its figures as JSON, then exits (a phase may
 * leave a handle open: a Node-RED runtime's, a Redis client's); exit code 1 and the error on a failure.
 */
export function runAlone(phase: () => Promise<unknown>): void {
  phase().then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`, () => process.exit(0));
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
