/**
 * Starting a process with something on its standard input.
 *
 * @module
 */

/**
 * Spawns a command whose standard input is piped, writes the input and
 * closes it.
 *
 * @param command the command, made with `stdin: "piped"`
 * @param input what to write, text as UTF-8
 * @returns the running process
 */
export async function spawnWithInput(
  command: Deno.Command,
  input: string | Uint8Array,
): Promise<Deno.ChildProcess> {
  const child = command.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(
    typeof input === "string" ? new TextEncoder().encode(input) : input,
  );
  await writer.close();
  return child;
}
