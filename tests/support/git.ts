/**
 * Running git in a folder, for the test sites and the benchmarks' sites.
 *
 * @module
 */

/**
 * Runs git in a folder.
 *
 * @param root the folder
 * @returns a function that runs `git -C root …` and gives its standard
 *   output, or throws with its error output when git fails
 */
export function gitIn(root: string): (...args: string[]) => Promise<string> {
  return async (...args) => {
    const output = await new Deno.Command("git", {
      args: ["-C", root, ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      throw new Error(
        `git ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`,
      );
    }
    return new TextDecoder().decode(output.stdout);
  };
}
