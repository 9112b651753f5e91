/**
 * docs/cli.md matches `--help`: each command's section names every flag its
 * help prints, and no flag the help does not print; the page lists every
 * command the main help lists.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, runCli } from "../support/cli.ts";

const page = await Deno.readTextFile(join(ROOT, "docs/cli.md"));

/** The flags of a help text's `Options:` block, `--help` aside. */
function helpFlags(help: string): string[] {
  const options = help.slice(help.indexOf("\nOptions:\n"));
  const block = options.slice(0, options.search(/\n\n|$/));
  return [...block.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)]
    .map((match) => match[1]!)
    .filter((flag) => flag !== "--help");
}

/** The section of docs/cli.md under `## \`editor <command>\``. */
function section(command: string): string {
  const heading = `\n## \`editor ${command}\`\n`;
  const start = page.indexOf(heading);
  assert.ok(start >= 0, `docs/cli.md has a section for editor ${command}`);
  const rest = page.slice(start + heading.length);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The flags a section's table lists (its first column). */
function tableFlags(text: string): string[] {
  return [...text.matchAll(/^\| `(--[a-z][a-z-]*)/gm)].map((match) =>
    match[1]!
  );
}

Deno.test("docs/cli.md lists every command of editor --help, and each command's flags as its --help prints them", async () => {
  const main = await runCli(["--help"]);
  assert.equal(main.code, 0);
  const commands = [
    ...main.stdout.slice(main.stdout.indexOf("\nCommands:\n")).matchAll(
      /^ {2}([a-z][a-z-]*)(?= )/gm,
    ),
  ].map((match) => match[1]!).filter((name) => name !== "help");
  assert.deepEqual(commands, ["serve", "check", "convert", "hash-key"]);
  for (const command of commands) {
    const help = await runCli([command, "--help"]);
    assert.equal(help.code, 0, command);
    const flags = helpFlags(help.stdout);
    assert.ok(flags.length > 0, `editor ${command} --help prints flags`);
    assert.deepEqual(
      tableFlags(section(command)).sort(),
      [...flags].sort(),
      `the flags of editor ${command} in docs/cli.md`,
    );
  }
});
