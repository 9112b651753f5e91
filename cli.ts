/**
 * The `editor` command line, and the Deno-only parts of the package:
 * `editor serve` serves the routes locally against a checked-out
 * repository, `editor hash-key` makes the key hash. Run it from a checkout
 * with `deno task editor …`.
 *
 * @example
 * ```sh
 * deno task editor serve --demo
 * deno task editor serve --repo ../my-site --port 8787
 * printf '%s' 'correct horse battery staple' | deno task editor hash-key
 * ```
 *
 * @module
 */

import { Command, CommanderError, InvalidArgumentError } from "commander";
import { hashKeyCommand, KeyInputError } from "./cli/hash_key.ts";
import { startServe } from "./cli/serve.ts";
import { ServeError } from "./cli/site_checkout.ts";
import { checkCommand } from "./cli/check.ts";
import { convertCommand, ConvertError } from "./cli/convert.ts";
import type { ConvertOptions } from "./cli/convert.ts";
import { checkHtmlCommand } from "./cli/check_html.ts";
import { VERSION } from "./lib/version.ts";
import {
  IMAGES_FOLDER,
  INPAGE_ATTRIBUTES,
  PAGES_FOLDER,
  ROUTES,
} from "./lib/wire/names.ts";
import type { ServeOptions } from "./cli/serve.ts";
import type { HashKeyOptions } from "./cli/hash_key.ts";
import type { TemplateSyntax } from "./lib/pages/locales.ts";

export { openLocalCheckout } from "./lib/repository/local/mod.ts";
export type {
  LocalCheckout,
  LocalCheckoutOptions,
} from "./lib/repository/local/mod.ts";
export { startServe } from "./cli/serve.ts";
export { ServeError } from "./cli/site_checkout.ts";
export type { RunningServe, ServeIo, ServeOptions } from "./cli/serve.ts";
export { hashKeyCommand } from "./cli/hash_key.ts";
export { checkCommand, checkPages, formatFailure } from "./cli/check.ts";
export type { CheckOptions, CheckReport, PageFailure } from "./cli/check.ts";
export {
  convertCommand,
  ConvertError,
  convertSite,
  pageName,
  readFrontMatter,
  splitFrontMatter,
} from "./cli/convert.ts";
export type {
  BodyRewrite,
  ConvertedPage,
  ConvertOptions,
  ConvertProblem,
  ConvertReport,
  FrontMatter,
  FrontMatterFormat,
  FrontMatterRead,
  ImageCopy,
} from "./cli/convert.ts";
export {
  checkHtml,
  checkHtmlCommand,
  formatHtmlProblem,
} from "./cli/check_html.ts";
export type {
  HtmlCheckOptions,
  HtmlCheckReport,
  HtmlProblem,
} from "./cli/check_html.ts";
export {
  contentTypeOf,
  createStaticSite,
  notFoundResponse,
  safeSegments,
  serveStaticFile,
} from "./cli/static_site.ts";
export { createProxy, proxyTarget } from "./cli/proxy.ts";
export type { HashKeyIo, HashKeyOptions } from "./cli/hash_key.ts";
export type { KeyInput } from "./cli/read_key.ts";

/** What the CLI reads and writes; the real process by default. */
export interface CliIo {
  /** Standard output. */
  out: (text: string) => void;
  /** Standard error. */
  err: (text: string) => void;
  /** Standard input. */
  stdin: ReadableStream<Uint8Array>;
  /** Whether standard input is a terminal. */
  isTerminal: boolean;
  /** Switches the terminal's raw mode. */
  setRaw?: (raw: boolean) => void;
  /** An environment variable; default none. */
  getEnv?: (name: string) => string | undefined;
  /** Calls `stop` on SIGINT or SIGTERM; returns a way to stop listening. */
  onStopSignal?: (stop: () => void) => () => void;
}

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) {
      throw new InvalidArgumentError(`${name} must be a whole number`);
    }
    const number = Number(value);
    if (number < min || number > max) {
      throw new InvalidArgumentError(
        `${name} must be between ${min} and ${max}`,
      );
    }
    return number;
  };
}

/** `editor check` found failures: exit code 1, the lines already printed. */
class CheckFailed extends Error {}

/** `editor convert` left something out: exit code 1, the lines printed. */
class ConvertFailed extends Error {}

/** Builds the `editor` program: commander, not yet parsed. */
function createProgram(io: CliIo): Command {
  const program = new Command("editor")
    .description(
      "Edit a static site's JSON pages in place: the server side of @inpage/editor",
    )
    .version(VERSION)
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .showHelpAfterError("(run editor --help for usage)");
  addServe(program, io);
  addCheck(program, io);
  addConvert(program, io);
  addHashKey(program, io);
  return program;
}

/** The route paths in words: `/api/auth, /api/content, … and /api/upload`. */
function routePaths(): string {
  const paths = Object.values(ROUTES).map((route) => route.path);
  return `${paths.slice(0, -1).join(", ")} and ${paths.at(-1)}`;
}

/** `--locales en,fr`: the list, trimmed, without empty names. */
function parseLocales(value: string): string[] {
  return value.split(",").map((locale) => locale.trim()).filter(Boolean);
}

/** The options of a command that reads a site's checkout: `--repo`. */
function addRepoOption(command: Command): Command {
  return command.option(
    "--repo <dir>",
    `the site's checkout, holding ${PAGES_FOLDER}`,
    ".",
  );
}

/** `--template-syntax allow|refuse`. */
function templateSyntax(value: string): TemplateSyntax {
  if (value !== "allow" && value !== "refuse") {
    throw new InvalidArgumentError('--template-syntax is "allow" or "refuse"');
  }
  return value;
}

/** `--template-syntax`, for a site that renders strings as templates. */
function addTemplateOption(command: Command): Command {
  return command.option(
    "--template-syntax <allow|refuse>",
    "refuse {{, {% and {# in every string and key, for a site that renders page strings as templates (Eleventy, Hugo)",
    templateSyntax,
  );
}

/** `--locales`, parsed by {@linkcode parseLocales}. */
function addLocalesOption(command: Command): Command {
  return command.option(
    "--locales <list>",
    `comma-separated locales (default: the folder names under ${PAGES_FOLDER})`,
    parseLocales,
  );
}

/** `editor serve`: the routes, the overlay and the site on one origin. */
function addServe(program: Command, io: CliIo): void {
  const command = addRepoOption(
    program.command("serve").description(
      `Serve ${routePaths()} locally against a checked-out site repository`,
    ),
  )
    .option(
      "--port <port>",
      "port to listen on (0 picks a free one)",
      integer("--port", 0, 65_535),
      8787,
    )
    .option("--hostname <address>", "address to listen on", "127.0.0.1")
    .option(
      "--allowed-host <name>",
      "also answer requests for this host name, any port (repeatable; .example.com for a domain and its subdomains): a tunnel's, or this machine's name on the LAN",
      (value: string, previous: string[] = []) => [...previous, value],
    );
  addTemplateOption(addLocalesOption(command))
    .option(
      "--kv <file>",
      "SQLite file of the embedded KV (default: a file in your cache folder)",
    )
    .option("--no-commit", "write files without committing them")
    .option("--demo", "serve a demo site made in a temporary git repository")
    .option(
      "--site <dir>",
      "also serve this built site's static files (e.g. dist), on the same origin",
    )
    .option(
      "--proxy <url>",
      "send every other path to the site's dev server (e.g. http://127.0.0.1:4321), WebSockets included",
    )
    .addHelpText(
      "after",
      `
The site key: EDITOR_KEY_HASH (from editor hash-key) when set; named
editors: EDITOR_KEYS, a JSON object of id -> { hash, name, email }. With
neither, a random key is made for this run and printed once on standard error.
To add an editor, run editor hash-key --name <id> --full-name <name> --email
<address>, give them the key it prints once, and merge the entry it prints
into EDITOR_KEYS; to remove one, delete their entry (their sessions end);
restart editor serve after either.
Reviews: scheduled ones are published by editor serve itself (every 30
seconds); preview links are signed with EDITOR_PREVIEW_SECRET (32 characters
or more), or with a secret made for this run (its links stop with it).
Each request writes one JSON log line on standard output. Ctrl-C stops.

A site whose templates render page strings as templates (Eleventy's
renderContent, a Nunjucks or Liquid filter, Hugo's RenderString) runs with
--template-syntax refuse: a publish holding {{, {% or {# in any string or key
is answered 422 invalid_content, reason template.

Only requests addressed to it are answered: a Host other than localhost,
127.0.0.1, [::1] or --hostname (with the port) gets 421, against DNS
rebinding. To reach it through a tunnel or by name from a phone on the LAN,
name each host with --allowed-host (like Vite's server.allowedHosts), e.g.
--allowed-host abc.trycloudflare.com --allowed-host laptop.local.

The origin: the routes under /api/, the overlay's files under /_inpage/
(a page loads them with <script type="module" src="/_inpage/loader.js">),
then the site: --proxy sends everything else to its dev server (live reload
included), --site serves its built files (folders by index.html; dotfiles,
traversal and links out of the folder answer 404).

Examples:
  deno task editor serve --demo
  deno task editor serve --repo . --proxy http://127.0.0.1:4321
  deno task editor serve --repo . --site dist
  deno task editor serve --repo . --proxy http://127.0.0.1:4321 --allowed-host laptop.local
  EDITOR_KEY_HASH='$argon2id$…' deno task editor serve --repo ../my-site`,
    )
    .action((options: ServeOptions) => serve(options, io));
}

/** Runs `editor serve` until a stop signal. */
async function serve(options: ServeOptions, io: CliIo): Promise<void> {
  const running = await startServe(options, {
    out: io.out,
    err: io.err,
    getEnv: io.getEnv ?? (() => undefined),
  });
  let stopping = false;
  const stopListening = io.onStopSignal?.(() => {
    if (stopping) return;
    stopping = true;
    io.err("Stopping\n");
    void running.shutdown();
  });
  await running.finished;
  stopListening?.();
}

/** `editor check`: the publish rules on every page file, for a site's CI. */
function addCheck(program: Command, io: CliIo): void {
  const command = addRepoOption(
    program.command("check").description(
      "Run the publish rules on every page file of a checkout (for a site's CI)",
    ),
  );
  addTemplateOption(addLocalesOption(command))
    .option(
      "--html <dir>",
      "check the regions of a built site (such as dist) against the page files instead",
    )
    .addHelpText(
      "after",
      `
Each .json file under ${PAGES_FOLDER} must have a page path of one of the
locales (${PAGES_FOLDER}/{locale}/{page}.json), pass the page rules that
${ROUTES.save.path} applies (markup, links, ids, keys, media, size), and every media
src must name a file under ${IMAGES_FOLDER}/. Every problem of every file prints
one line, file: pointer: reason (detail), on standard output, the detail naming
what is wrong; other files there (.md, .mdx) are named as not checked.

With --template-syntax refuse (for a site that renders page strings as
templates, as editor serve --template-syntax refuse does), no string or key
may hold {{, {% or {#.

Exit code: 0 when every page passes (one summary line), 1 otherwise, and 1
when there is no page file at all.

With --html DIR, every .html file under DIR is checked instead: each
${INPAGE_ATTRIBUTES.page} names a page file that exists, each pointer names a value of
it that fits its kind (text, html and markdown a string, image a media
object, link a link object, list an array), list items are numbered in order
from 0, and no html (rich-text) region names a string that looks like
markdown (mark those data-inpage-markdown). Each problem prints one line,
file: pointer-or-selector: reason.

Examples:
  deno task editor check --repo .
  deno task editor check --repo ../my-site --locales en,fr
  deno task editor check --repo . --html dist

In GitHub Actions, before the build:
  - uses: actions/checkout@v4
  - uses: denoland/setup-deno@v2
  - run: deno run -A jsr:@inpage/editor@2/cli check --repo .
and after it:
  - run: deno run -A jsr:@inpage/editor@2/cli check --repo . --html dist`,
    )
    .action(
      async (
        options: {
          repo: string;
          locales?: string[];
          html?: string;
          templateSyntax?: TemplateSyntax;
        },
      ) => {
        const code = options.html === undefined
          ? await checkCommand(options, { out: io.out, err: io.err })
          : await checkHtmlCommand({ ...options, html: options.html }, io);
        if (code !== 0) throw new CheckFailed();
      },
    );
}

/** `editor convert`: front-matter pages (`.md`, `.mdx`) to page files. */
function addConvert(program: Command, io: CliIo): void {
  addRepoOption(
    program.command("convert").description(
      "Convert front-matter pages (.md, .mdx: Astro, Eleventy, Hugo) into page files, and their image paths into media objects",
    ),
  )
    .argument(
      "[sources...]",
      `front-matter files or folders of them, from the checkout (default: the .md and .mdx files in ${PAGES_FOLDER})`,
    )
    .option(
      "--lang <code>",
      "the language of a single-language site: the pages go under it",
      "en",
    )
    .option("--dry-run", "print what would be done, write nothing")
    .addHelpText(
      "after",
      `
Each source becomes ${PAGES_FOLDER}/{lang}/{page}.json: the page is its
path in the folder named (an index file, -index.md or _index.md, and a file
named as its folder are the folder; the index of a folder named content is
home), in lower-case words joined by hyphens. The front matter is YAML
(---), Eleventy's ---json or ---js (values only: code is refused, never run),
or Hugo's TOML (+++) or JSON; every key is kept as it is; the markdown body
becomes the string field "body". In the body, a link to a source file
converted in the same run (blog/thirdpost.md) becomes its page's URL
(/{lang}/{page}/), an image beside the post (![alt](possum.png), <img
src="./possum.png">) is copied and written ![alt](/images/possum.png); a link
to a file not converted, and template syntax (a shortcode), are named. A string naming an image
file ("/images/banner.png") becomes a media object {src, width, height, alt},
its sides read from the file; the file is copied into ${IMAGES_FOLDER}/
under a name the media rule accepts (Banner.PNG to banner.png) and the
original stays. A page is written only when it passes the page rules
(raw HTML in a body does not: write markdown); the sources are never changed.

Standard output: one line per page written, per link or image rewritten and
per image copied, then "not converted: source: pointer: reason" for what
could not be converted.
Exit code: 0 when everything converted, 1 otherwise.

Examples:
  deno task editor convert --repo ../my-site --dry-run
  deno task editor convert --repo ../my-site --lang fr
  deno task editor convert --repo . src/content/about src/content/homepage`,
    )
    .action(
      async (
        sources: string[],
        options: Omit<ConvertOptions, "sources">,
      ) => {
        let code: number;
        try {
          code = await convertCommand({ ...options, sources }, {
            out: io.out,
            err: io.err,
          });
        } catch (error) {
          if (!(error instanceof ConvertError)) throw error;
          io.err(`editor: ${error.message}\n`);
          code = 1;
        }
        if (code !== 0) throw new ConvertFailed();
      },
    );
}

/** `editor hash-key`: the argon2id hash of the site key. */
function addHashKey(program: Command, io: CliIo): void {
  const command = program.command("hash-key")
    .description(
      "Read the site key from standard input (a hidden prompt, asked twice, on a terminal) and print its argon2id hash for EDITOR_KEY_HASH; with --name, make a named editor's key and EDITOR_KEYS entry",
    );
  for (
    const [flag, value, help, min, max] of [
      ["--memory", "<KiB>", "memory cost in KiB (default 65536)", 8, 1_048_576],
      ["--iterations", "<n>", "time cost (default 3)", 1, 20],
      ["--parallelism", "<n>", "lanes (default 1)", 1, 16],
    ] as const
  ) {
    command.option(`${flag} ${value}`, help, integer(flag, min, max));
  }
  command
    .option(
      "--target-ms <ms>",
      "calibrate the iterations (and memory, unless given) to take about this long here",
      integer("--target-ms", 1, 60_000),
    )
    .option(
      "--allow-weak",
      "accept a cost below OWASP's argon2id minimum (for tests only)",
    )
    .option(
      "--name <id>",
      "a named editor (EDITOR_KEYS): generate their key <id>.<secret>, print it once, and print the entry to add",
    )
    .option("--full-name <name>", "with --name: the name their commits carry")
    .option("--email <address>", "with --name: the email their commits carry")
    .option(
      "--role <role>",
      "with --name: publisher (the default: publishes) or author (sends changes for review, never publishes)",
    )
    .addHelpText(
      "after",
      `
The cost must reach OWASP's minimum for argon2id: m=19456 KiB (19 MiB) at
t=2, or m=47104 at t=1, 12288 at t=3, 9216 at t=4, 7168 at t=5 or more.
Parameters or a calibration below it are refused unless --allow-weak is given.

Named editors: --name alice generates alice's key (alice.<secret>), prints it
once on standard output, then the JSON entry to merge into EDITOR_KEYS. With
--role author the entry says "role": "author": they send changes for review,
and a publisher publishes them. To remove an editor, delete their entry from
EDITOR_KEYS: their sessions end.

Examples:
  deno task editor hash-key                       # asks for the key twice
  printf '%s' "$KEY" | deno task editor hash-key  # from a pipe
  deno task editor hash-key --target-ms 500       # slower, calibrated here
  deno task editor hash-key --name alice --full-name "Alice Martin" --email alice@example.com
  deno task editor hash-key --name bob --role author`,
    )
    .action(async (options: HashKeyOptions) => {
      await hashKeyCommand(options, {
        readable: io.stdin,
        isTerminal: io.isTerminal,
        ...(io.setRaw ? { setRaw: io.setRaw } : {}),
        prompt: io.err,
        out: io.out,
        err: io.err,
      });
    });
}

/**
 * Runs the CLI on arguments.
 *
 * @param args the arguments after the program name
 * @param io where it reads and writes
 * @returns the exit code: 0, or 1 after a one-line message
 */
export async function main(args: string[], io: CliIo): Promise<number> {
  const program = createProgram(io);
  if (args.length === 0) {
    io.out(program.helpInformation());
    return 0;
  }
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    if (error instanceof CheckFailed || error instanceof ConvertFailed) {
      return 1;
    }
    if (error instanceof KeyInputError || error instanceof ServeError) {
      io.err(`editor: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function writer(file: { writeSync(bytes: Uint8Array): number }) {
  const encoder = new TextEncoder();
  return (text: string): void => {
    let bytes = encoder.encode(text);
    while (bytes.byteLength > 0) bytes = bytes.subarray(file.writeSync(bytes));
  };
}

if (import.meta.main) {
  const code = await main(Deno.args, {
    out: writer(Deno.stdout),
    err: writer(Deno.stderr),
    stdin: Deno.stdin.readable,
    isTerminal: Deno.stdin.isTerminal(),
    setRaw: (raw) => Deno.stdin.setRaw(raw),
    getEnv: (name) => Deno.env.get(name),
    onStopSignal: (stop) => {
      const signals: Deno.Signal[] = Deno.build.os === "windows"
        ? ["SIGINT", "SIGBREAK"]
        : ["SIGINT", "SIGTERM"];
      for (const signal of signals) Deno.addSignalListener(signal, stop);
      return () => {
        for (const signal of signals) Deno.removeSignalListener(signal, stop);
      };
    },
  });
  Deno.exit(code);
}
