/**
 * How deep a JSON value the server reads, in a request body or a GraphQL query (decision 0034).
 * Case documents, notification actions and every other body nest far less; the schemas that check
 * them, and JSON.stringify, walk a value recursively, and a value nested deep enough exhausts the
 * stack.
 */
export const JSON_MAX_DEPTH = 100;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether the JSON text nests objects and arrays deeper than `max`, read in one pass without
 * parsing (so without recursion); brackets inside strings do not count. Text that is not JSON
 * answers whatever its brackets say: the parser refuses it after.
 */
export function isJsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let isInString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (isInString) {
      if (char === BACKSLASH) i += 1;
      else if (char === QUOTE) isInString = false;
    } else if (char === QUOTE) {
      isInString = true;
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}
