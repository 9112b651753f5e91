/**
 * Header parameters (`; name=value`, RFC 9110): the parsing shared by the
 * form's `content-type` and each part's `content-disposition`.
 *
 * @module
 */

/** Characters of an RFC 9110 token. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Parses `; name=value` parameters (a token, or a quoted string with
 * backslash escapes) from `start`, which must be a `;`. Names are lowered; a
 * repeated name, a missing `=`, an unterminated quote or text after a value
 * makes the whole list invalid. An unquoted value runs to the next `;` or
 * whitespace, which tolerates senders that leave `=` or `/` unquoted.
 *
 * @param text the header value
 * @param start index of the first `;`
 * @returns the parameters, or `undefined` when malformed
 */
export function parseParameters(
  text: string,
  start: number,
): Map<string, string> | undefined {
  const parameters = new Map<string, string>();
  let i = start;
  const skipSpace = () => {
    while (text[i] === " " || text[i] === "\t") i++;
  };
  while (i < text.length) {
    if (text[i] !== ";") return undefined;
    i++;
    skipSpace();
    if (i === text.length) break;
    const equals = text.indexOf("=", i);
    if (equals < 0) return undefined;
    const name = text.slice(i, equals).toLowerCase();
    if (!TOKEN.test(name) || parameters.has(name)) return undefined;
    i = equals + 1;
    let value = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        const char = text[i];
        if (char === undefined) return undefined;
        i++;
        if (char === '"') break;
        if (char === "\\") {
          const escaped = text[i];
          if (escaped === undefined) return undefined;
          value += escaped;
          i++;
        } else {
          value += char;
        }
      }
    } else {
      const end = text.slice(i).search(/[;\s"]|$/);
      value = text.slice(i, i + end);
      i += end;
      if (value === "") return undefined;
    }
    skipSpace();
    parameters.set(name, value);
  }
  return parameters;
}
