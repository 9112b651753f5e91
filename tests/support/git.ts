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

/**
 * Makes a folder a git repository on `main` with everything in it committed
 * as "Initial", under an identity set in that repository only.
 *
 * @param git the runner of the folder, from {@linkcode gitIn}
 * @param name the committer's name
 * @param email the committer's email
 */
export async function commitInitial(
  git: (...args: string[]) => Promise<string>,
  name: string,
  email: string,
): Promise<void> {
  await git("init", "--quiet", "--initial-branch=main");
  await git("config", "user.name", name);
  await git("config", "user.email", email);
  await git("add", "--all");
  await git("commit", "--quiet", "-m", "Initial");
}
