/**
 * Every command of the ```sh blocks of the README and of docs/ (the README
 * first, then the pages of docs/ in path order), run as written from a fresh
 * clone of the committed repository, on this machine (Node, npm, curl, git):
 * the PLAN below says how each one is run and checked, or why it is skipped.
 * A command that no entry of the plan matches fails the test, and so does an
 * entry that matches nothing: a new command comes with its check.
 *
 * Beside the clone (`…/main`) is `…/my-site`, the folder the pages call
 * "your site": a git copy of examples/site with a built `dist/` and a page
 * still in the old form (`"src": "/images/hero.jpg"`).
 *
 * Servers are started, checked for their ready line and stopped; they get
 * `--port 0` when the command names no port (8787 may be taken here). The
 * curl walk-through (docs/routes.md) runs in one shell against the demo (its
 * URL and key replace the page's), where every curl must answer 2xx.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { ROOT } from "./support/cli.ts";
import { documentedPages } from "./support/docs.ts";
import { spawnWithInput } from "./support/process.ts";

/** How one documented command is run, or why it is not. */
type Step =
  /** Not run here, for the reason given. */
  | { skip: string }
  /**
   * Run; its exit code is `exit` (default 0) and, when given, its output
   * matches `expect` (a list: one per occurrence, in the pages' order).
   */
  | {
    run: "command";
    stdin?: string;
    exit?: number | number[];
    expect?: RegExp | RegExp[];
  }
  /** A server: started, its ready line awaited, stopped. */
  | { run: "server" }
  /** The demo: the walk-through runs against it. */
  | { run: "demo" }
  /** A command of the curl walk-through, run in order in one shell. */
  | { run: "walk-through" };

const KEY = "a site key for the documented commands";

const SUITE =
  "the whole suite, which this test is part of: .ci/run runs it, here and in a fresh clone";

/** Each documented command matches exactly one entry; each entry matches one or more. */
const PLAN: [RegExp, Step][] = [
  [/^npx --yes deno@2\.9\.6 task demo$/, { run: "demo" }],
  [/^npx --yes deno@2\.9\.6 task test$/, { skip: SUITE }],
  [/^npx --yes deno@2\.9\.6 task ok$/, {
    skip:
      "deno task test runs it (the gate: fmt, lint, check, doc, test, publish)",
  }],
  [/^npx --yes deno@2\.9\.6 task test-hosts$/, {
    skip:
      ".ci/run runs it after the suite (the Node, Bun and workerd recipes as real processes)",
  }],
  [/^npx --yes deno@2\.9\.6 task bench$/, {
    skip:
      "benchmarks: minutes of measurement, ratios rather than a pass or fail",
  }],
  [/^npx --yes deno@2\.9\.6 task load$/, {
    skip:
      "a load measurement (a minute of both cores), not a check; deno task test stays under 10 minutes",
  }],
  [/^npx --yes deno@2\.9\.6 task stress$/, {
    skip:
      "about 3 minutes of property runs; deno task test stays under 10 minutes",
  }],
  [/^npx --yes deno@2\.9\.6 run -A bench\/upload_memory\.ts$/, {
    skip: "a measurement of peak memory, not a check",
  }],
  [/^GITHUB_(APP_ID|APP_INSTALLATION_ID|APP_PRIVATE_KEY|REPOSITORY)=/, {
    skip:
      "a host's settings for a GitHub App: tests/docs_test.ts reads these variables from docs/deploy.md through the router against the GitHub double",
  }],
  [/^deno run -A jsr:@inpage\/editor@2\/cli (?:serve|check) /, {
    skip:
      "the published package, as a site runs it (JSR is not reachable here): the same serve and check flags run from the checkout in tests/frameworks/build_checks.ts, tests/cli/eleventy_demo.e2e.ts and tests/cli/hugo_demo.e2e.ts",
  }],
  [/^deno task editor (?:serve|check) --repo \. /, {
    skip:
      "run inside an Eleventy site with the package in its deno.json tasks: tests/cli/eleventy_demo.e2e.ts and tests/frameworks/build_checks.ts run the same flags",
  }],
  [
    /^hugo server --port 1313 --baseURL http:\/\/127\.0\.0\.1:8787\/ --appendPort=false --liveReloadPort 8787$/,
    {
      skip:
        "a Hugo site's dev server: examples/hugo/demo.ts starts it with these flags (deno task hugo-demo, tests/cli/hugo_demo.e2e.ts)",
    },
  ],
  [/^(KEY|ORIGIN|PAGE)=/, { run: "walk-through" }],
  [/^curl /, { run: "walk-through" }],
  [/^node -e /, { run: "walk-through" }],
  [/^rm jar read\.json save\.json$/, { run: "walk-through" }],
  // The README's picture, taken again in the clone: the script still runs.
  [/^npx --yes deno@2\.9\.6 run -A tests\/readme_picture\.ts$/, {
    run: "command",
    expect: /^wrote \S*\/docs\/images\/overlay\.png$/m,
  }],
  [/^npx --yes deno@2\.9\.6 task editor hash-key$/, {
    run: "command",
    stdin: KEY + "\n",
    expect: /^\$argon2id\$v=19\$m=65536,t=3,p=1\$/m,
  }],
  [/^printf '%s' "\$KEY" \| npx --yes deno@2\.9\.6 task editor hash-key$/, {
    run: "command",
    expect: /^\$argon2id\$v=19\$m=65536,t=3,p=1\$/m,
  }],
  [/^npx --yes deno@2\.9\.6 task editor hash-key --target-ms \d+$/, {
    run: "command",
    stdin: KEY,
    expect: /^\$argon2id\$v=19\$m=\d+,t=\d+,p=1\$/m,
  }],
  [
    /^npx --yes deno@2\.9\.6 task editor hash-key --name alice --full-name "Alice Martin" --email alice@example\.com$/,
    {
      run: "command",
      expect:
        /^alice\.[A-Za-z0-9_-]{32}\n\{"alice":\{"hash":"\$argon2id\$v=19\$m=65536,t=3,p=1\$[^"]+","name":"Alice Martin","email":"alice@example\.com"\}\}$/m,
    },
  ],
  [/^npx --yes deno@2\.9\.6 task editor hash-key --name bob --role author$/, {
    run: "command",
    expect:
      /^bob\.[A-Za-z0-9_-]{32}\n\{"bob":\{"hash":"\$argon2id\$v=19\$m=65536,t=3,p=1\$[^"]+","name":"bob","email":"bob@inpage\.invalid","role":"author"\}\}$/m,
  }],
  [/^npx --yes deno@2\.9\.6 task editor serve /, { run: "server" }],
  [/^npx --yes deno@2\.9\.6 task editor check --repo examples\/site$/, {
    run: "command",
    expect:
      /^4 page files checked \(locales en, fr\): all pass the page rules$/m,
  }],
  // Moving pages that name images by path: the check fails, sed, it passes.
  [/^npx --yes deno@2\.9\.6 task editor check --repo \.\.\/my-site$/, {
    run: "command",
    exit: [1, 0],
    expect: [
      /^src\/content\/pages\/en\/about\.json: \/image\/src: media \(image name not allowed: "\/images\/hero\.jpg" is a path, not a file name; write the bare name "hero\.jpg" of a file in public\/images\/\)$/m,
      /^4 page files checked \(locales en, fr\): all pass the page rules$/m,
    ],
  }],
  [/^sed -i\.bak -E /, { run: "command" }],
  [/^rm \.\.\/my-site\/src\/content\/pages\/\*\/\*\.json\.bak$/, {
    run: "command",
  }],
  // Adopting a front-matter site: convert (a dry run, then for real: both
  // refuse the <h3>), the body in markdown, convert again, then check.
  [/^cp -R tests\/fixtures\/adopt \.\.\/adopt$/, { run: "command" }],
  [
    /^npx --yes deno@2\.9\.6 task editor convert --repo \.\.\/adopt(?: --dry-run)?$/,
    {
      run: "command",
      exit: [1, 1, 0],
      expect: [
        /^would write src\/content\/pages\/en\/home\.json \(from src\/content\/pages\/home\.md; media objects at \/banner\/image, \/features\/0\/image\)$/m,
        /^not converted: src\/content\/pages\/contact\.md: \/body: markup \(.*\): raw HTML <h3> in the text, which the page rules refuse; write it in markdown \(### Title, not <h3>Title<\/h3>\), then run again$/m,
        /^write src\/content\/pages\/en\/contact\.json \(from src\/content\/pages\/contact\.md\)$/m,
      ],
    },
  ],
  [/^rm \.\.\/adopt\/src\/content\/pages\/\*\.md /, { run: "command" }],
  [/^npx --yes deno@2\.9\.6 task editor check --repo \.\.\/adopt$/, {
    run: "command",
    expect: /^3 page files checked \(locales en\)/m,
  }],
  [
    /^(?:PUBLIC_INPAGE_EDITOR=1 )?npx --yes deno@2\.9\.6 run -A npm:astro build$/,
    {
      skip:
        "tests/cli/adopt.e2e.ts builds the converted fixture both ways (deno task test-astro): npm install and two Astro builds",
    },
  ],
];

/** One command of a page's block, comments and line continuations removed. */
interface Command {
  /** The command as it runs. */
  text: string;
  /** Its page and first line there, for messages: `docs/cli.md line 12`. */
  line: string;
}

/**
 * The commands of a page's ```sh blocks: a shell reading of quotes (a
 * command may span lines inside quotes), `\` line continuations and
 * `#` comments outside quotes.
 */
function shCommands(page: string, markdown: string): Command[] {
  const commands: Command[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== "```sh") continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    const block = lines.slice(start, end).join("\n") + "\n";
    let current = "";
    let quote: "'" | '"' | undefined;
    let line = start + 1;
    let first = line;
    for (let at = 0; at < block.length; at++) {
      const char = block[at]!;
      if (char === "\n") line++;
      if (quote === "'") {
        current += char;
        if (char === "'") quote = undefined;
      } else if (quote === '"') {
        current += char;
        if (char === "\\") current += block[++at] ?? "";
        else if (char === '"') quote = undefined;
      } else if (char === "'" || char === '"') {
        quote = char;
        current += char;
      } else if (char === "\\" && block[at + 1] === "\n") {
        at++;
        line++;
        current += " ";
      } else if (char === "#" && (current === "" || /\s$/.test(current))) {
        while (at + 1 < block.length && block[at + 1] !== "\n") at++;
      } else if (char === "\n") {
        const text = current.trim();
        if (text) commands.push({ text, line: `${page} line ${first}` });
        current = "";
        first = line;
      } else {
        if (current.trim() === "") first = line;
        current += char;
      }
    }
    assert.equal(quote, undefined, `${page} line ${start}: unclosed quote`);
    index = end;
  }
  return commands;
}

function stepOf(command: Command): Step {
  const matches = PLAN.filter(([pattern]) => pattern.test(command.text));
  assert.equal(
    matches.length,
    1,
    `${command.line}: ${
      matches.length === 0 ? "no" : "more than one"
    } entry of the PLAN in tests/readme_commands_test.ts for: ${command.text}`,
  );
  return matches[0]![1];
}

/** What a finished command printed. */
interface Ran {
  code: number;
  output: string;
}

async function bash(
  script: string,
  cwd: string,
  stdin = "",
): Promise<Ran> {
  const child = await spawnWithInput(
    new Deno.Command("bash", {
      args: ["-c", script],
      cwd,
      env: { KEY, NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }),
    stdin,
  );
  const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  try {
    const { code, stdout, stderr } = await child.output();
    const decoder = new TextDecoder();
    return {
      code,
      output: decoder.decode(stdout) + decoder.decode(stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A server started in its own process group. */
interface Server {
  output: () => string;
  /** Resolves with the first match of `ready` in the output. */
  ready: (ready: RegExp) => Promise<RegExpExecArray>;
  /** SIGTERM to the group; resolves when the shell has exited. */
  stop: () => Promise<void>;
}

function startServer(command: string, cwd: string): Server {
  const child = new Deno.Command("setsid", {
    args: ["bash", "-c", `exec ${command}`],
    cwd,
    env: { KEY, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  let exited = false;
  const pumps = Promise.all([child.stdout, child.stderr].map(async (stream) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      output += text;
    }
  }));
  const status = child.status.then(() => void (exited = true));
  return {
    output: () => output,
    ready: async (ready) => {
      const deadline = Date.now() + 180_000;
      for (;;) {
        const match = ready.exec(output);
        if (match) return match;
        if (exited || Date.now() > deadline) {
          throw new Error(`${command} did not start:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: async () => {
      if (!exited) {
        try {
          Deno.kill(-child.pid, "SIGTERM");
        } catch {
          // Already gone.
        }
      }
      await status;
      await pumps;
    },
  };
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const { success, stderr } = await new Deno.Command("git", {
    args,
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(
    success,
    `git ${args.join(" ")}: ${new TextDecoder().decode(stderr)}`,
  );
}

/** `…/my-site`: the example site as a git repository, with old image paths. */
async function mySite(clone: string, site: string): Promise<void> {
  await Deno.mkdir(site);
  await bash(`cp -R ${clone}/examples/site/. ${site}/`, clone);
  await Deno.mkdir(join(site, "dist"));
  await Deno.writeTextFile(
    join(site, "dist", "index.html"),
    "<h1>Built</h1>\n",
  );
  await Deno.copyFile(
    join(site, "public", "images", "workbench-2ed45495a5b0.png"),
    join(site, "public", "images", "hero.jpg"),
  );
  const page = JSON.parse(
    await Deno.readTextFile(join(site, "src/content/pages/en/about.json")),
  );
  page.image.src = "/images/hero.jpg";
  await Deno.writeTextFile(
    join(site, "src/content/pages/en/about.json"),
    JSON.stringify(page, null, 2) + "\n",
  );
  await git(site, "init", "--quiet");
  await git(site, "add", "-A");
  await git(
    site,
    "-c",
    "user.name=Site",
    "-c",
    "user.email=site@example.com",
    "commit",
    "--quiet",
    "-m",
    "The site",
  );
}

Deno.test("every command of the README's sh blocks runs from a fresh clone, or is skipped with its reason", async () => {
  const work = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "inpage-readme-" }),
  );
  const servers: Server[] = [];
  try {
    const clone = join(work, "main");
    await git(work, "clone", "--quiet", ROOT, clone);
    await mySite(clone, join(work, "my-site"));
    const commands: Command[] = [];
    for (const page of await documentedPages(clone)) {
      commands.push(
        ...shCommands(page, await Deno.readTextFile(join(clone, page))),
      );
    }
    const steps = commands.map((command) => ({
      command,
      step: stepOf(command),
    }));
    for (const [pattern] of PLAN) {
      assert.ok(
        commands.some((command) => pattern.test(command.text)),
        `the PLAN entry ${pattern} matches no documented command`,
      );
    }
    const localise = (text: string) =>
      text.replaceAll("/tmp/editor.sqlite3", join(work, "editor.sqlite3"));
    const withPort = (text: string) =>
      /\s--port\s/.test(text) ? text : `${text} --port 0`;

    // The demo, then the walk-through against it.
    const demo = steps.filter(({ step }) =>
      "run" in step && step.run === "demo"
    );
    assert.equal(demo.length, 1, "one demo command");
    const server = startServer(withPort(demo[0]!.command.text), clone);
    servers.push(server);
    const url = (await server.ready(/listening on (http:\/\/\S+)\//))[1]!;
    const key = (await server.ready(/site key for this run is (\S+)/))[1]!;
    const script = [
      "set -euo pipefail",
      "exec 2>&1",
      // Every curl of the walk-through must answer 2xx, or say why.
      'curl() { command curl --fail-with-body --show-error "$@"; }',
      ...steps.filter(({ step }) =>
        "run" in step && step.run === "walk-through"
      )
        .map(({ command }) => {
          const text = command.text.replaceAll("http://127.0.0.1:8787", url)
            .replace(/^KEY=.*$/, `KEY='${key}'`);
          return `printf '%s\\n' ${
            JSON.stringify(`>>> ${command.line}`)
          } >&2\n${text}`;
        }),
    ].join("\n");
    const walk = await bash(script, clone);
    assert.equal(walk.code, 0, `the curl walk-through failed:\n${walk.output}`);
    await server.stop();
    assert.match(server.output(), /Stopping/);

    const seen = new Map<Step, number>();
    for (const { command, step } of steps) {
      if (!("run" in step)) continue;
      if (step.run === "command") {
        const occurrence = seen.get(step) ?? 0;
        seen.set(step, occurrence + 1);
        const exit = Array.isArray(step.exit)
          ? step.exit[occurrence]
          : step.exit ?? 0;
        const ran = await bash(localise(command.text), clone, step.stdin);
        assert.equal(
          ran.code,
          exit,
          `${command.line}: ${command.text}\n${ran.output}`,
        );
        const expect = Array.isArray(step.expect)
          ? step.expect[occurrence]
          : step.expect;
        if (expect) assert.match(ran.output, expect, command.text);
      } else if (step.run === "server") {
        const started = startServer(withPort(localise(command.text)), clone);
        servers.push(started);
        await started.ready(/listening on http:\/\/\S+\//);
        await started.stop();
      }
    }
    const skipped = steps.filter(({ step }) => "skip" in step);
    console.log(
      `Documented commands: ${
        steps.length - skipped.length
      } run, ${skipped.length} skipped:\n` +
        skipped.map(({ command, step }) =>
          `  ${command.text}: ${(step as { skip: string }).skip}`
        ).join("\n"),
    );
  } finally {
    for (const server of servers) await server.stop();
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("the README and docs/ link only to files in the repository, and name no file that is not shipped", async () => {
  const { stdout } = await new Deno.Command("git", {
    args: ["ls-files"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  const files = new TextDecoder().decode(stdout).split("\n").filter(Boolean);
  let count = 0;
  for (const page of await documentedPages(ROOT)) {
    const text = await Deno.readTextFile(join(ROOT, page));
    const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target));
    count += links.length;
    for (const link of links) {
      const path = normalize(join(dirname(page), link)).replace(/\/$/, "");
      assert.ok(
        files.some((file) => file === path || file.startsWith(path + "/")),
        `${page} links to ${link}, which is not in the repository`,
      );
    }
    for (const unshipped of ["DESIGN.md", "STYLE.md", "route-reference.md"]) {
      assert.ok(!text.includes(unshipped), `${page} names ${unshipped}`);
    }
  }
  assert.ok(count > 50, `only ${count} links found`);
});
