/**
 * Installs what the tests use beside Deno and npm packages: Debian's
 * `argon2` command and python3-argon2 (independent argon2 verifiers),
 * `git`, Chromium for the browser test, Hugo for the Hugo example, and
 * `redis-server` for the Redis store's tests (started on a free loopback port
 * by each test, never as a service). Run by `deno task test`
 * before the tests; does nothing when everything is present.
 *
 * @module
 */

const needs: { check: string[]; apt: string; why: string }[] = [
  {
    check: ["/usr/bin/argon2", "-h"],
    apt: "argon2",
    why: "reference argon2 command",
  },
  {
    check: ["/usr/bin/python3", "-c", "import argon2"],
    apt: "python3-argon2",
    why: "independent argon2 verifier",
  },
  { check: ["git", "--version"], apt: "git", why: "local checkout tests" },
  {
    check: ["/usr/bin/chromium", "--version"],
    apt: "chromium",
    why: "browser test",
  },
  {
    check: ["redis-server", "--version"],
    apt: "redis-server",
    why: "Redis store tests",
  },
  { check: ["hugo", "version"], apt: "hugo", why: "the Hugo example" },
];

async function works(command: string[]): Promise<boolean> {
  try {
    const [program = "", ...args] = command;
    const { success } = await new Deno.Command(program, {
      args,
      stdout: "null",
      stderr: "null",
    }).output();
    // `argon2 -h` exits with 1 after printing its usage: it exists.
    return success || program.endsWith("argon2");
  } catch {
    return false;
  }
}

async function run(program: string, args: string[]): Promise<void> {
  console.log(`setup: ${program} ${args.join(" ")}`);
  const { success } = await new Deno.Command(program, {
    args,
    stdout: "inherit",
    stderr: "inherit",
    env: { DEBIAN_FRONTEND: "noninteractive" },
  }).output();
  if (!success) throw new Error(`${program} ${args.join(" ")} failed`);
}

const missing = [];
for (const need of needs) {
  if (!await works(need.check)) missing.push(need);
}
if (missing.length === 0) {
  console.log(
    "setup: argon2, python3-argon2, git, chromium, hugo and redis-server are present",
  );
} else {
  const packages = missing.map((need) => need.apt);
  console.log(
    `setup: installing ${
      missing.map((need) => `${need.apt} (${need.why})`).join(", ")
    }`,
  );
  const root = Deno.uid() === 0;
  const sudo = root ? [] : ["sudo", "-n"];
  const [program = "apt-get", ...prefix] = [...sudo, "apt-get"];
  try {
    await run(program, [...prefix, "update", "-qq"]);
    await run(program, [...prefix, "install", "-y", "-qq", ...packages]);
  } catch (error) {
    console.error(
      `setup: could not install ${packages.join(" ")}: ${
        (error as Error).message
      }. Install them with apt-get (as root) and run the tests again.`,
    );
    Deno.exit(1);
  }
  for (const need of missing) {
    if (!await works(need.check)) {
      console.error(`setup: ${need.apt} is still missing after apt-get`);
      Deno.exit(1);
    }
  }
}
