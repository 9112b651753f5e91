/**
 * Eleventy's JavaScript front matter (`---js`), read without running it:
 * declarations of literal values only,
 *
 * ```js
 * const eleventyNavigation = { key: "About", order: 3 };
 * const title = "This is a fifth post";
 * ```
 *
 * become `{ eleventyNavigation: { key: "About", order: 3 }, title: "…" }`.
 * Strings (single, double or back quotes without `${`), numbers, `true`,
 * `false`, `null`, arrays and objects (keys bare, quoted or numbers,
 * trailing commas) are read; comments are skipped. Anything else (a
 * function, a call, a variable, an expression) is code that only Eleventy
 * can run: the front matter is refused, naming what was met.
 *
 * @module
 */

/** Front matter that is code, not data: what was met, and where. */
export class JsFrontMatterError extends Error {
  /**
   * Creates the error.
   *
   * @param message what was met, in words
   */
  constructor(message: string) {
    super(message);
    this.name = "JsFrontMatterError";
  }
}

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const NUMBER = /-?(?:0|[1-9][0-9_]*)?(?:\.[0-9_]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  0: "\0",
};

/** A cursor over the source. */
class Reader {
  index = 0;
  constructor(readonly text: string) {}

  /** Skips white space and comments. */
  skip(): void {
    for (;;) {
      const rest = this.text.slice(this.index);
      const space = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/.exec(rest);
      if (!space) return;
      this.index += space[0].length;
    }
  }

  peek(): string {
    this.skip();
    return this.text[this.index] ?? "";
  }

  expect(char: string): void {
    if (this.peek() !== char) this.fail(`${JSON.stringify(char)} expected`);
    this.index++;
  }

  match(pattern: RegExp): string | undefined {
    this.skip();
    pattern.lastIndex = this.index;
    const found = pattern.exec(this.text)?.[0];
    if (found) this.index += found.length;
    return found || undefined;
  }

  /** Refuses, quoting the source where the reading stopped. */
  fail(what: string): never {
    const line = this.text.slice(0, this.index).split("\n").length;
    const near = this.text.slice(this.index).split("\n")[0]!.trim().slice(
      0,
      40,
    );
    throw new JsFrontMatterError(
      `line ${line}: ${what}${near ? ` at ${JSON.stringify(near)}` : ""}`,
    );
  }
}

function string(reader: Reader): string {
  const quote = reader.text[reader.index]!;
  let out = "";
  for (let i = reader.index + 1; i < reader.text.length; i++) {
    const char = reader.text[i]!;
    if (char === quote) {
      reader.index = i + 1;
      return out;
    }
    if (quote === "`" && char === "$" && reader.text[i + 1] === "{") {
      reader.index = i;
      reader.fail("a template literal with ${…} (code)");
    }
    if (char === "\n" && quote !== "`") break;
    if (char !== "\\") {
      out += char;
      continue;
    }
    const next = reader.text[++i] ?? "";
    if (next === "u" || next === "x") {
      const hex = next === "x"
        ? reader.text.slice(i + 1, i + 3)
        : reader.text[i + 1] === "{"
        ? reader.text.slice(i + 2, reader.text.indexOf("}", i))
        : reader.text.slice(i + 1, i + 5);
      const code = Number.parseInt(hex, 16);
      if (!/^[0-9a-fA-F]+$/.test(hex) || code > 0x10ffff) {
        reader.index = i;
        reader.fail("a bad escape");
      }
      out += String.fromCodePoint(code);
      i += next === "x" ? 2 : reader.text[i + 1] === "{" ? hex.length + 2 : 4;
    } else if (next === "\n") continue;
    else out += ESCAPES[next] ?? next;
  }
  reader.fail("a string without its closing quote");
}

function value(reader: Reader, depth: number): unknown {
  if (depth > 32) reader.fail("values nested too deep");
  const char = reader.peek();
  if (char === '"' || char === "'" || char === "`") return string(reader);
  if (char === "[") {
    reader.index++;
    const items: unknown[] = [];
    while (reader.peek() !== "]") {
      items.push(value(reader, depth + 1));
      if (reader.peek() === ",") reader.index++;
      else if (reader.peek() !== "]") reader.fail('"," or "]" expected');
    }
    reader.index++;
    return items;
  }
  if (char === "{") {
    reader.index++;
    const object: Record<string, unknown> = {};
    while (reader.peek() !== "}") {
      const quote = reader.peek();
      const key = quote === '"' || quote === "'"
        ? string(reader)
        : reader.match(IDENTIFIER) ?? reader.match(NUMBER);
      if (key === undefined) reader.fail("a key expected");
      if (reader.peek() !== ":") {
        reader.fail(`a value for ${JSON.stringify(key)} (shorthand or method)`);
      }
      reader.index++;
      Object.defineProperty(object, key, {
        value: value(reader, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (reader.peek() === ",") reader.index++;
      else if (reader.peek() !== "}") reader.fail('"," or "}" expected');
    }
    reader.index++;
    return object;
  }
  const number = reader.match(NUMBER);
  if (number !== undefined && /[0-9]/.test(number)) {
    const parsed = Number(number.replaceAll("_", ""));
    const after = reader.text[reader.index] ?? "";
    if (Number.isFinite(parsed) && !/[A-Za-z0-9_$(.]/.test(after)) {
      return parsed;
    }
    reader.fail("a number JSON cannot hold");
  }
  const word = reader.match(IDENTIFIER);
  if (word === "true" || word === "false") {
    if (reader.peek() !== "(" && reader.peek() !== ".") return word === "true";
  }
  if (word === "null" && reader.peek() !== "(") return null;
  reader.fail(word === undefined ? "a value expected" : `code (${word})`);
}

/**
 * Reads `---js` front matter made of literal declarations.
 *
 * @param source the front matter, between `---js` and `---`
 * @returns each declared name and its value
 * @throws {JsFrontMatterError} on anything that is not a literal declaration
 * @example
 * ```ts
 * import { readJsFrontMatter } from "./js_front_matter.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(
 *   readJsFrontMatter('const eleventyNavigation = {\n\tkey: "About",\n\torder: 3\n};'),
 *   { eleventyNavigation: { key: "About", order: 3 } },
 * );
 * assert.throws(() => readJsFrontMatter("const a = Date.now();"), /code \(Date\)/);
 * ```
 */
export function readJsFrontMatter(source: string): Record<string, unknown> {
  const reader: Reader = new Reader(source);
  const data: Record<string, unknown> = {};
  while (reader.peek() !== "") {
    const keyword = reader.match(IDENTIFIER);
    if (keyword !== "const" && keyword !== "let" && keyword !== "var") {
      reader.fail(
        keyword === undefined
          ? "a declaration expected"
          : `code (${keyword}): only const, let or var declarations of values are read`,
      );
    }
    const name = reader.match(IDENTIFIER);
    if (name === undefined) reader.fail("a name expected");
    reader.expect("=");
    Object.defineProperty(data, name, {
      value: value(reader, 0),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    // A declaration ends with ";", a line break or the end.
    const end = reader.index;
    if (reader.peek() === ";") reader.index++;
    else if (
      reader.peek() !== "" && !source.slice(end, reader.index).includes("\n")
    ) reader.fail('";" expected');
  }
  return data;
}
