/**
 * JSON.parse, except that an integer a JavaScript number cannot hold exactly becomes its exact decimal
 * string instead of a rounded number (a 64-bit ID sent as a number, say).
 */
export function parseJsonExact(text: string): unknown {
  // An integer of 16 digits or more right after `:`, `[` or `,`, or as the whole text. Quoted IDs, the
  // usual case, do not match, so most replies go straight to JSON.parse.
  if (!MAYBE_UNSAFE.test(text)) return JSON.parse(text);
  return JSON.parse(quoteUnsafeIntegers(text));
}

const MAYBE_UNSAFE = /(?:^|[[:,])\s*-?\d{16}/;
const INTEGER = /^-?\d+$/;

/** The JSON text with every unsafe integer literal put in quotes; strings are left untouched. */
function quoteUnsafeIntegers(text: string): string {
  let result = "";
  let copied = 0;
  let index = 0;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) {
      index = endOfString(text, index);
    } else if (char === MINUS || isDigit(char)) {
      const start = index;
      index++;
      while (index < text.length && isNumberPart(text.charCodeAt(index))) index++;
      const token = text.slice(start, index);
      if (INTEGER.test(token) && !Number.isSafeInteger(Number(token))) {
        result += `${text.slice(copied, start)}"${token}"`;
        copied = index;
      }
    } else {
      index++;
    }
  }
  return copied === 0 ? text : result + text.slice(copied);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;

const isDigit = (char: number): boolean => char >= 0x30 && char <= 0x39;
/** Digits, `.`, `e`, `E`, `+`, `-`. */
const isNumberPart = (char: number): boolean => isDigit(char) || char === 0x2e || char === 0x65 || char === 0x45 || char === 0x2b || char === MINUS;

/** The index just past the string that starts at `start` (or the end of the text). */
function endOfString(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === BACKSLASH) index++;
    else if (char === QUOTE) return index + 1;
  }
  return text.length;
}
