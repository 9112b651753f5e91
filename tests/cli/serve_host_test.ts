/**
 * `editor serve` answers only requests addressed to it: a `Host` that names
 * another site (a DNS-rebinding page, say) gets 421 JSON, in every mode.
 */
import assert from "node:assert/strict";
import { assertHelpMentions, runCli, serveCheckout } from "../support/cli.ts";
import { rawExchange } from "../support/raw_http.ts";
import { tempSite } from "../support/site.ts";

/** A dev server that counts what reaches it. */
function devServer() {
  const seen: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      seen.push(request.url);
      return new Response("dev page");
    },
  );
  return { server, seen, url: `http://127.0.0.1:${server.addr.port}` };
}

/** Standard error holds the key notice and nothing else: no Deno warning. */
function assertQuiet(stderr: string) {
  const lines = stderr.split("\n").filter((line) =>
    line !== "" &&
    !/^No EDITOR_KEY_HASH: |^\(it is shown once|^Stopping$/.test(line)
  );
  assert.deepEqual(lines, []);
}

async function assertHosts(url: string, page: string, served: RegExp) {
  const port = Number(new URL(url).port);
  for (
    const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
    ]
  ) {
    const answer = await rawExchange(
      port,
      `GET ${page} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`,
    );
    assert.match(answer.body, served, `${host}: ${answer.raw}`);
  }
  for (
    const host of [
      `evil.example:${port}`,
      `evil.example`,
      `127.0.0.1`,
      `127.0.0.1:${port + 1}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1:${port}@evil.example`,
    ]
  ) {
    for (
      const target of [page, "/api/content?path=src/content/pages/en/home.json"]
    ) {
      const answer = await rawExchange(
        port,
        `GET ${target} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`,
      );
      if (answer.status === 400 && answer.body === "") continue; // refused by the HTTP parser
      assert.equal(answer.status, 421, `${host} ${target}: ${answer.raw}`);
      assert.deepEqual(JSON.parse(answer.body), {
        error: "misdirected_request",
      });
      assert.equal(
        answer.headers.get("content-type"),
        "application/json; charset=utf-8",
      );
      assert.equal(answer.headers.get("cache-control"), "no-store");
      assert.equal(answer.headers.get("x-content-type-options"), "nosniff");
    }
  }
  // An absolute-form target naming another host.
  const absolute = await rawExchange(
    port,
    `GET http://evil.example:${port}${page} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`,
  );
  assert.equal(absolute.status, 421, absolute.raw);
}

Deno.test("editor serve --proxy answers only its own Host: another one gets 421 JSON and never reaches the dev server", async () => {
  await using site = await tempSite();
  const dev = devServer();
  try {
    await using server = await serveCheckout(site.root, {
      args: ["--proxy", dev.url],
    });
    const before = dev.seen.length;
    await assertHosts(server.url, "/en/", /^dev page$/);
    assert.equal(dev.seen.length, before + 4, "only the four good hosts");
    assert.equal(await server.stop(), 0);
    assertQuiet(server.stderr());
  } finally {
    await dev.server.shutdown();
  }
});

Deno.test("editor serve --site answers only its own Host", async () => {
  await using site = await tempSite();
  await Deno.mkdir(`${site.root}/dist`);
  await Deno.writeTextFile(`${site.root}/dist/index.html`, "built page");
  await using server = await serveCheckout(site.root, {
    args: ["--site", `${site.root}/dist`],
  });
  await assertHosts(server.url, "/", /^built page$/);
  assert.equal(await server.stop(), 0);
  assertQuiet(server.stderr());
});

Deno.test("editor serve without a site answers only its own Host too", async () => {
  await using site = await tempSite();
  await using server = await serveCheckout(site.root);
  await assertHosts(server.url, "/api/auth", /method_not_allowed/);
  assert.equal(await server.stop(), 0);
  assertQuiet(server.stderr());
});

Deno.test("editor serve --allowed-host answers those names too, with any port (a tunnel, a name on the LAN), and still 421 to every other", async () => {
  await using site = await tempSite();
  await using server = await serveCheckout(site.root, {
    args: [
      "--allowed-host",
      "Abc.Tunnel.example",
      "--allowed-host",
      ".lan.example",
    ],
  });
  const port = Number(new URL(server.url).port);
  const status = async (host: string) =>
    (await rawExchange(
      port,
      `GET /api/auth HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`,
    )).status;
  for (
    const host of [
      "abc.tunnel.example",
      "abc.tunnel.example:443",
      "ABC.TUNNEL.EXAMPLE.",
      `laptop.lan.example:${port}`,
      "lan.example",
      `localhost:${port}`,
    ]
  ) {
    assert.equal(await status(host), 405, host);
  }
  for (
    const host of [
      "tunnel.example",
      "x.abc.tunnel.example",
      "abc.tunnel.example.evil.example",
      "evillan.example",
      "lan.example.evil.example",
      `evil.example:${port}`,
    ]
  ) {
    assert.equal(await status(host), 421, host);
  }
  assert.equal(await server.stop(), 0);
  assert.match(
    server.stderr(),
    /Also answering to \(--allowed-host\): abc\.tunnel\.example, \.lan\.example/,
  );
});

Deno.test("editor serve refuses an --allowed-host that is not a host name with one line and exit 1", async () => {
  await using site = await tempSite();
  for (
    const value of ["*", "laptop.local:8787", "http://a.example", "a b", ""]
  ) {
    const run = await runCli(
      ["serve", "--repo", site.root, "--port", "0", "--allowed-host", value],
      "",
      {},
      30_000,
    );
    assert.equal(run.code, 1, value);
    assert.match(run.stderr, /--allowed-host .* is not a host name/);
    assert.equal(run.stderr.trim().split("\n").length, 1);
  }
});

Deno.test("editor serve --help says how to let a tunnel or a LAN name in", async () => {
  await assertHelpMentions("serve", [
    "--allowed-host <name>",
    "421",
    "server.allowedHosts",
    "tunnel",
  ]);
});
