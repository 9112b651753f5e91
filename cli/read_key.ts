/**
 * Reading the site key: a hidden prompt on a terminal, or standard input.
 *
 * @module
 */

import { BodyTooLargeError, readCapped } from "../lib/http/read_capped.ts";
import { PIPED_KEY_MAX } from "../lib/limits.ts";

/** Where a key is read from and prompts are written to. */
export interface KeyInput {
  /** The bytes typed or piped in. */
  readable: ReadableStream<Uint8Array>;
  /** Whether the input is a terminal (then: a hidden prompt, asked twice). */
  isTerminal: boolean;
  /** Switches the terminal's raw mode, so typed characters are not echoed. */
  setRaw?: (raw: boolean) => void;
  /** Writes a prompt (standard error, so standard output stays clean). */
  prompt: (text: string) => void;
}

/** A key that cannot be used; the CLI prints the message and exits with 1. */
export class KeyInputError extends Error {
  /**
   * Creates the error.
   *
   * @param message one line for the user
   */
  constructor(message: string) {
    super(message);
    this.name = "KeyInputError";
  }
}

/**
 * Reads the key: piped input whole (one final newline removed), or a
 * terminal line twice without echo.
 *
 * @param input the input and its prompt
 * @returns the key as typed
 * @throws {KeyInputError} when the two typed keys differ or input is cancelled
 */
export async function readKey(input: KeyInput): Promise<string> {
  if (!input.isTerminal) return await readPiped(input.readable);
  const reader = input.readable.getReader();
  input.setRaw?.(true);
  try {
    input.prompt("Site key: ");
    const first = await readHiddenLine(reader);
    input.prompt("\nRepeat the key: ");
    const second = await readHiddenLine(reader);
    input.prompt("\n");
    if (first !== second) throw new KeyInputError("The two keys differ");
    return first;
  } finally {
    input.setRaw?.(false);
    reader.releaseLock();
  }
}

async function readPiped(
  readable: ReadableStream<Uint8Array>,
): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(readable, PIPED_KEY_MAX);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new KeyInputError("The key is longer than 256 characters");
    }
    throw new KeyInputError("Standard input could not be read");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new KeyInputError("The key is not valid UTF-8");
  }
  return text.replace(/\r?\n$/, "");
}

async function readHiddenLine(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<string> {
  const bytes: number[] = [];
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const byte of value) {
      if (byte === 0x0d || byte === 0x0a) return decode(bytes);
      if (byte === 0x03) throw new KeyInputError("Cancelled");
      if (byte === 0x04 && bytes.length === 0) {
        throw new KeyInputError("Cancelled");
      }
      if (byte === 0x7f || byte === 0x08) {
        dropLastCharacter(bytes);
        continue;
      }
      bytes.push(byte);
      if (bytes.length > PIPED_KEY_MAX) {
        throw new KeyInputError("The key is longer than 256 characters");
      }
    }
  }
  return decode(bytes);
}

function dropLastCharacter(bytes: number[]): void {
  while (bytes.length > 0) {
    const byte = bytes.pop() ?? 0;
    if ((byte & 0xc0) !== 0x80) return;
  }
}

function decode(bytes: number[]): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(
      new Uint8Array(bytes),
    );
  } catch {
    throw new KeyInputError("The key is not valid UTF-8");
  }
}
