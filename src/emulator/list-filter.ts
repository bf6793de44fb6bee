/** The field-by-field filters of the list endpoints: an item must pass every filter the request sent. */

/** One filter: undefined when the request did not send its field, so it lets every item through. */
export type FieldFilter<T> = ((item: T) => boolean) | undefined;

/** The filter of one request field: none when the field was not sent, else `test` against the value sent. */
export function whenSent<T, V>(value: V | undefined, test: (item: T, value: V) => boolean): FieldFilter<T> {
  return value === undefined ? undefined : (item) => test(item, value);
}

/** Matches an item that passes every filter that was sent. */
export function matchingAll<T>(filters: ReadonlyArray<FieldFilter<T>>): (item: T) => boolean {
  const sent = filters.filter((filter): filter is (item: T) => boolean => filter !== undefined);
  return (item) => sent.every((filter) => filter(item));
}
