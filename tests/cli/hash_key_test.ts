import assert from "node:assert/strict";
import {
  assertHelpMentions,
  CLI,
  ROOT,
  runCli,
  verifyWithPython,
} from "../support/cli.ts";
import { spawnWithInput } from "../support/process.ts";
import { readEditorKeys } from "../../lib/access/editors.ts";

/** The hash-key command at a cost cheap enough for tests. */
const WEAK_HASH_KEY = [
  "hash-key",
  "--memory",
  "64",
  "--iterations",
  "1",
  "--allow-weak",
];

const PHC_LINE =
  /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+\n$/;

Deno.test("editor hash-key prints only a PHC string that an independent argon2 verifies", async () => {
  const key = "correct horse battery staple";
  const run = await runCli(["hash-key"], key + "\n");
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  const match = PHC_LINE.exec(run.stdout);
  assert.ok(match, run.stdout);
  assert.deepEqual(match.slice(1), ["65536", "3", "1"]);
  const phc = run.stdout.trim();
  assert.equal(await verifyWithPython(phc, key), true);
  assert.equal(
    await verifyWithPython(phc, key + "\n"),
    false,
    "the final newline is not part of the key",
  );
  assert.equal(
    await verifyWithPython(phc, "correct horse battery stapl"),
    false,
  );
});

Deno.test("editor hash-key honours --memory, --iterations and --parallelism", async () => {
  const key = "clé with ünïcode ✓";
  const run = await runCli([
    "hash-key",
    "--memory",
    "1024",
    "--iterations",
    "2",
    "--parallelism",
    "2",
    "--allow-weak",
  ], key);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(PHC_LINE.exec(run.stdout)?.slice(1), ["1024", "2", "2"]);
  assert.equal(await verifyWithPython(run.stdout.trim(), key), true);
});

Deno.test("editor hash-key refuses an empty key and a key over 256 characters with one line and exit 1", async () => {
  for (
    const [input, message] of [["", "empty"], ["\n", "empty"], [
      "k".repeat(257),
      "longer than 256",
    ], ["é".repeat(257) + "\n", "longer than 256"]]
  ) {
    const run = await runCli(["hash-key"], input as string);
    assert.equal(run.code, 1, JSON.stringify(input).slice(0, 40));
    assert.equal(run.stdout, "");
    assert.equal(run.stderr.split("\n").filter(Boolean).length, 1, run.stderr);
    assert.match(run.stderr, new RegExp(message as string));
  }
  const ok = await runCli(
    [...WEAK_HASH_KEY],
    "é".repeat(256),
  );
  assert.equal(ok.code, 0, ok.stderr);
});

Deno.test("editor hash-key refuses bad options with a message and exit 1", async () => {
  for (
    const args of [
      ["--iterations", "0"],
      ["--iterations", "21"],
      ["--memory", "lots"],
      ["--parallelism", "17"],
      ["--target-ms", "100", "--iterations", "2"],
      ["--memory", "8", "--parallelism", "2"],
      ["--bogus"],
    ]
  ) {
    const run = await runCli(["hash-key", ...args], "a key");
    assert.equal(run.code, 1, args.join(" "));
    assert.equal(run.stdout, "");
    assert.ok(run.stderr.length > 0);
    assert.ok(!run.stderr.includes("a key"));
  }
});

const FASTER = "or pass --allow-weak to accept a hash that is faster to guess";

Deno.test("editor hash-key refuses parameters below OWASP's argon2id minimum, before reading the key", async () => {
  for (
    const [args, cost, minimum] of [
      [["--memory", "8"], "m=8 KiB with t=3", "m=12288 KiB at t=3"],
      [
        ["--memory", "19455", "--iterations", "2"],
        "m=19455 KiB with t=2",
        "m=19456 KiB at t=2",
      ],
      [
        ["--memory", "47103", "--iterations", "1"],
        "m=47103 KiB with t=1",
        "m=47104 KiB at t=1",
      ],
      [
        ["--memory", "7167", "--iterations", "20"],
        "m=7167 KiB with t=20",
        "m=7168 KiB at t=20",
      ],
    ] as const
  ) {
    const run = await runCli(["hash-key", ...args], "a key");
    assert.equal(run.code, 1, args.join(" "));
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      `editor: Parameters refused: ${cost} is below OWASP's minimum for argon2id (${minimum}; m=19456 KiB at t=2): raise --memory or --iterations, ${FASTER}\n`,
    );
  }
});

Deno.test("editor hash-key accepts OWASP's minimum and its equivalents", async () => {
  for (
    const [memory, iterations] of [["19456", "2"], ["47104", "1"], [
      "7168",
      "5",
    ]]
  ) {
    const run = await runCli(
      ["hash-key", "--memory", memory!, "--iterations", iterations!],
      "a key",
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.deepEqual(PHC_LINE.exec(run.stdout)?.slice(1), [
      memory,
      iterations,
      "1",
    ]);
  }
});

Deno.test("editor hash-key --allow-weak makes a weak hash with a warning on standard error", async () => {
  const run = await runCli(
    [...WEAK_HASH_KEY],
    "a key",
  );
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(PHC_LINE.exec(run.stdout)?.slice(1), ["64", "1", "1"]);
  assert.equal(
    run.stderr,
    "Warning: --allow-weak: m=64 KiB with t=1 is below OWASP's minimum for argon2id (m=47104 KiB at t=1; m=19456 KiB at t=2); use this hash for tests only\n",
  );
});

Deno.test("editor hash-key refuses a calibration that ends below OWASP's minimum", async () => {
  const run = await runCli(["hash-key", "--target-ms", "1"], "a key");
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout, "");
  const last = run.stderr.trim().split("\n").at(-1) ?? "";
  assert.match(
    last,
    new RegExp(
      `^editor: Calibration refused: it ended at m=(\\d+) KiB with t=(\\d+), below OWASP's minimum for argon2id \\(m=\\d+ KiB at t=\\2; m=19456 KiB at t=2\\): raise --target-ms, ${FASTER}$`,
    ),
  );
  assert.ok(!run.stderr.includes("Hashed with"));
  const weak = await runCli(
    ["hash-key", "--target-ms", "1", "--allow-weak"],
    "a key",
  );
  assert.equal(weak.code, 0, weak.stderr);
  assert.match(weak.stdout, PHC_LINE);
  assert.match(
    weak.stderr,
    /Warning: --allow-weak: m=\d+ KiB with t=\d+ is below/,
  );
});

Deno.test("editor hash-key --target-ms calibrates on this machine and reports on standard error", async () => {
  // The memory is fixed so that a loaded machine, which would calibrate the
  // memory below OWASP's minimum, still calibrates the iterations.
  const run = await runCli(
    ["hash-key", "--target-ms", "400", "--memory", "65536"],
    "calibrated key",
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /Calibrating/);
  assert.match(run.stderr, /Hashed with m=\d+ t=\d+ p=1 in \d+ ms/);
  assert.match(run.stdout, PHC_LINE);
  assert.equal(
    await verifyWithPython(run.stdout.trim(), "calibrated key"),
    true,
  );
});

Deno.test("editor --help and editor hash-key --help explain the commands and options", async () => {
  const top = await runCli(["--help"]);
  assert.equal(top.code, 0);
  assert.match(top.stdout, /Usage: editor/);
  assert.match(top.stdout, /hash-key/);
  const none = await runCli([]);
  assert.equal(none.code, 0);
  assert.match(none.stdout, /Usage: editor/);
  await assertHelpMentions("hash-key", [
    "--memory <KiB>",
    "--iterations <n>",
    "--parallelism <n>",
    "--target-ms <ms>",
    "--allow-weak",
    "m=19456 KiB (19 MiB) at\nt=2",
    "EDITOR_KEY_HASH",
    "Examples:",
  ]);
  const unknown = await runCli(["frobnicate"]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /unknown command/);
});

Deno.test("deno task editor hash-key runs the CLI from a checkout", async () => {
  const child = await spawnWithInput(
    new Deno.Command(Deno.execPath(), {
      args: [
        "task",
        "--quiet",
        "editor",
        ...WEAK_HASH_KEY,
      ],
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }),
    "from the task",
  );
  const output = await child.output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.match(stdout, PHC_LINE);
  assert.equal(await verifyWithPython(stdout.trim(), "from the task"), true);
});

const PTY_DRIVER = `
import os, pty, sys, time, select
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
seen = b""
def read_until(token, limit=30):
    global seen
    end = time.time() + limit
    while token not in seen and time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
read_until(b"Site key: ")
os.write(fd, os.environ["FIRST"].encode() + b"\\r")
read_until(b"Repeat the key: ")
os.write(fd, os.environ["SECOND"].encode() + b"\\r")
read_until(b"\\n$argon2id" if os.environ["FIRST"] == os.environ["SECOND"] else b"differ")
read_until(b"\\n", 5) if False else None
_, status = os.waitpid(pid, 0)
while True:
    r, _, _ = select.select([fd], [], [], 0.2)
    if not r:
        break
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
sys.stdout.write(seen.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
`;

async function onTerminal(first: string, second: string) {
  const output = await new Deno.Command("/usr/bin/python3", {
    args: [
      "-c",
      PTY_DRIVER,
      Deno.execPath(),
      "run",
      "-A",
      "--quiet",
      CLI,
      ...WEAK_HASH_KEY,
    ],
    cwd: ROOT,
    env: { FIRST: first, SECOND: second, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, screen: new TextDecoder().decode(output.stdout) };
}

Deno.test("editor hash-key on a terminal asks twice without echoing the key", async () => {
  const key = "typed secret 42";
  const { code, screen } = await onTerminal(key, key);
  assert.equal(code, 0, screen);
  assert.match(screen, /Site key: /);
  assert.match(screen, /Repeat the key: /);
  assert.ok(!screen.includes(key), "the key is never echoed");
  const phc = /\$argon2id\$[^\s]+/.exec(screen)?.[0] ?? "";
  assert.equal(await verifyWithPython(phc, key), true);
});

Deno.test("editor hash-key on a terminal refuses two different keys", async () => {
  const { code, screen } = await onTerminal("first key", "second key");
  assert.equal(code, 1, screen);
  assert.match(screen, /differ/);
  assert.ok(!screen.includes("$argon2id"));
});

Deno.test("editor hash-key --name generates a named key, prints it once, and the EDITOR_KEYS entry whose hash verifies it", async () => {
  const run = await runCli([
    ...WEAK_HASH_KEY,
    "--name",
    "alice",
    "--full-name",
    "Alice Martin",
    "--email",
    "alice@example.com",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const [key = "", entry = "", ...rest] = run.stdout.split("\n");
  assert.deepEqual(rest, [""]);
  assert.match(key, /^alice\.[A-Za-z0-9_-]{32}$/);
  const parsed = JSON.parse(entry);
  assert.deepEqual(Object.keys(parsed), ["alice"]);
  assert.equal(parsed.alice.name, "Alice Martin");
  assert.equal(parsed.alice.email, "alice@example.com");
  assert.match(parsed.alice.hash, /^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
  assert.equal(await verifyWithPython(parsed.alice.hash, key), true);
  assert.equal(await verifyWithPython(parsed.alice.hash, "alice.x"), false);
  assert.ok(!run.stderr.includes(key), "the key is printed once");
  assert.match(run.stderr, /EDITOR_KEYS/);
  const again = await runCli([...WEAK_HASH_KEY, "--name", "alice"]);
  const [other = "", otherEntry = ""] = again.stdout.split("\n");
  assert.notEqual(other, key, "a fresh key each time");
  assert.deepEqual(
    { ...JSON.parse(otherEntry).alice, hash: "" },
    { hash: "", name: "alice", email: "alice@inpage.invalid" },
  );
});

Deno.test("editor hash-key --name refuses a bad id, the reserved id, a bad name or email (control and line-breaking characters included), and --email without --name, in one line", async () => {
  const cases: [string[], RegExp][] = [
    [["--name", "Alice"], /--name must be 1 to 32 lowercase/],
    [["--name", "a".repeat(33)], /--name must be 1 to 32 lowercase/],
    [["--name", "editor"], /plain site key's/],
    [["--name", "alice", "--full-name", "A <b>"], /--full-name must be/],
    [["--name", "alice", "--email", "not an address"], /--email is not/],
    [["--name", "alice", "--full-name", "Alice\u001b[2J"], /--full-name must/],
    [["--name", "alice", "--full-name", "Alice\u009b"], /--full-name must/],
    [["--name", "alice", "--full-name", "Alice\u2029"], /--full-name must/],
    [["--name", "alice", "--email", "a\u007f@x.org"], /--email is not/],
    [["--name", "alice", "--email", "a@x.org\u0085"], /--email is not/],
    [["--name", "alice", "--email", "a@x.org\u2028"], /--email is not/],
    [["--email", "a@example.com"], /go with --name/],
    [["--role", "author"], /go with --name/],
    [
      ["--name", "alice", "--role", "admin"],
      /--role must be publisher or author/,
    ],
  ];
  for (const [args, message] of cases) {
    const run = await runCli([...WEAK_HASH_KEY, ...args]);
    assert.equal(run.code, 1, args.join(" "));
    assert.equal(run.stdout, "");
    assert.match(run.stderr, message);
    assert.equal(run.stderr.trim().split("\n").length, 1, args.join(" "));
  }
});

Deno.test("editor hash-key --name --role author writes the role into the entry; publisher is the default, left out", async () => {
  const run = await runCli([
    ...WEAK_HASH_KEY,
    "--name",
    "bob",
    "--role",
    "author",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const [key = "", entry = ""] = run.stdout.split("\n");
  assert.match(key, /^bob\.[A-Za-z0-9_-]{32}$/);
  const parsed = JSON.parse(entry);
  assert.deepEqual(
    { ...parsed.bob, hash: "" },
    { hash: "", name: "bob", email: "bob@inpage.invalid", role: "author" },
  );
  const read = readEditorKeys(entry);
  assert.ok(read.ok);
  assert.equal(read.editors.get("bob")?.role, "author");
  const publisher = await runCli([
    ...WEAK_HASH_KEY,
    "--name",
    "carol",
    "--role",
    "publisher",
  ]);
  assert.equal(publisher.code, 0, publisher.stderr);
  assert.equal(
    "role" in JSON.parse(publisher.stdout.split("\n")[1]!).carol,
    false,
  );
});

Deno.test("editor hash-key --help says how to add and remove a named editor", async () => {
  await assertHelpMentions("hash-key", [
    "--name <id>",
    "--full-name <name>",
    "--email <address>",
    "--role <role>",
    "EDITOR_KEYS",
    "remove an editor",
  ]);
});
