/** A checkbox as saved: true from the editor, or "true" from a hand-written or older flow. */
export function isChecked(value: unknown): boolean {
  return value === true || value === "true";
}
