import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, serveCheckout } from "../support/cli.ts";
import { rawExchange } from "../support/raw_http.ts";
import { tempSite } from "../support/site.ts";

/** The bytes of the streamed asset: 3 MiB, every byte value. */
const ASSET = Uint8Array.from(
  { length: 3 * 1024 * 1024 },
  (_, index) => (index * 7 + (index >> 11)) & 0xff,
);

/** A tiny dev server: a page, a streamed binary asset, an echo, a WebSocket echo. */
function devServer() {
  const seen: { method: string; path: string; headers: Headers }[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: new Headers(request.headers),
      });
      if (url.pathname.endsWith("/live")) {
        const { socket, response } = Deno.upgradeWebSocket(request, {
          protocol: "vite-hmr",
        });
        socket.onopen = () => socket.send("connected");
        socket.onmessage = (event) =>
          socket.send(
            typeof event.data === "string" ? `echo: ${event.data}` : event.data,
          );
        return response;
      }
      if (url.pathname === "/en/") {
        return new Response(
          '<!doctype html><main data-inpage-page="src/content/pages/en/home.json"><h1>Dev page</h1></main>',
          {
            headers: {
              "content-type": "text/html; charset=utf-8",
              "x-dev": "yes",
            },
          },
        );
      }
      if (url.pathname === "/assets/photo.bin") {
        let offset = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (offset >= ASSET.length) return controller.close();
            controller.enqueue(ASSET.slice(offset, offset + 65_536));
            offset += 65_536;
          },
        });
        return new Response(body, {
          headers: { "content-type": "application/octet-stream" },
        });
      }
      if (url.pathname === "/echo") {
        return new Response(request.body, {
          status: 201,
          headers: {
            "x-method": request.method,
            "x-custom": request.headers.get("x-custom") ?? "",
          },
        });
      }
      if (url.pathname === "/collect") {
        return request.arrayBuffer().then(
          (bytes) => new Response(`collected ${bytes.byteLength}`),
          () => new Response("cut off", { status: 400 }),
        );
      }
      if (url.pathname === "/scheme-relative") {
        // A redirect whose path would read as another host once made relative.
        return new Response(null, {
          status: 302,
          headers: { location: `${url.origin}//evil.example/x?y=1` },
        });
      }
      if (url.pathname === "/old") {
        return new Response(null, {
          status: 301,
          headers: { location: `${url.origin}/en/?from=old` },
        });
      }
      return new Response("dev 404", { status: 404 });
    },
  );
  return { server, seen, url: `http://127.0.0.1:${server.addr.port}` };
}

/**
 * A site served by `editor serve --proxy` to a fresh dev server; the server,
 * the dev server and the site are closed in that order when disposed.
 */
async function proxiedSite(env: Record<string, string> = {}) {
  const site = await tempSite();
  const dev = devServer();
  try {
    const server = await serveCheckout(site.root, {
      args: ["--proxy", dev.url],
      env,
    });
    return {
      dev,
      server,
      async [Symbol.asyncDispose]() {
        try {
          await server[Symbol.asyncDispose]();
        } finally {
          await dev.server.shutdown();
          await site[Symbol.asyncDispose]();
        }
      },
    };
  } catch (error) {
    await dev.server.shutdown();
    await site[Symbol.asyncDispose]();
    throw error;
  }
}

Deno.test("editor serve --proxy passes a page, a streamed binary asset, a streamed request body and a redirect to the dev server", async () => {
  await using proxied = await proxiedSite();
  const { dev, server } = proxied;
  assert.match(
    server.stdout(),
    new RegExp(`, other paths from the dev server at ${dev.url}/\\)\n`),
  );
  const page = await fetch(`${server.url}en/?lang=en`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("x-dev"), "yes");
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  assert.match(await page.text(), /data-inpage-page="src\/content\/pages/);
  assert.equal(dev.seen.at(-1)?.path, "/en/?lang=en");

  const asset = await fetch(`${server.url}assets/photo.bin`);
  assert.equal(asset.headers.get("content-type"), "application/octet-stream");
  let received = 0;
  let chunks = 0;
  const copy = new Uint8Array(ASSET.length);
  for await (const chunk of asset.body!) {
    copy.set(chunk, received);
    received += chunk.byteLength;
    chunks++;
  }
  assert.equal(received, ASSET.length);
  assert.ok(chunks > 1, "arrives in several chunks");
  assert.deepEqual(copy, ASSET);

  const upload = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(ASSET.subarray(0, 100_000));
      controller.enqueue(ASSET.subarray(100_000, 250_000));
      controller.close();
    },
  });
  const echo = await fetch(`${server.url}echo`, {
    method: "PUT",
    headers: { "x-custom": "kept" },
    body: upload,
  });
  assert.equal(echo.status, 201);
  assert.equal(echo.headers.get("x-method"), "PUT");
  assert.equal(echo.headers.get("x-custom"), "kept");
  assert.deepEqual(
    new Uint8Array(await echo.arrayBuffer()),
    ASSET.subarray(0, 250_000),
  );
  const forwarded = dev.seen.at(-1)?.headers;
  assert.equal(
    forwarded?.get("x-forwarded-host"),
    new URL(server.url).host,
  );

  const moved = await fetch(`${server.url}old`, { redirect: "manual" });
  assert.equal(moved.status, 301);
  assert.equal(moved.headers.get("location"), "/en/?from=old");
  await moved.body?.cancel();

  const missing = await fetch(`${server.url}nothing`);
  assert.equal(missing.status, 404);
  assert.equal(await missing.text(), "dev 404");

  // The editor's routes are never sent to the dev server.
  const before = dev.seen.length;
  const logout = await fetch(`${server.url}api/auth`, { method: "DELETE" });
  assert.deepEqual(await logout.json(), { ok: true });
  const read = await fetch(
    `${server.url}api/content?path=src/content/pages/en/home.json`,
  );
  assert.equal(read.status, 401);
  await read.body?.cancel();
  const inpage = await fetch(`${server.url}_inpage/nothing.js`);
  assert.equal(inpage.status, 404);
  await inpage.body?.cancel();
  const loader = await fetch(`${server.url}_inpage/loader.js`);
  assert.equal(loader.status, 200);
  assert.match(loader.headers.get("content-type") ?? "", /^text\/javascript/);
  await loader.body?.cancel();
  assert.equal(dev.seen.length, before);
  assert.equal(await server.stop(), 0);
});

Deno.test("editor serve --proxy relays a WebSocket both ways with the dev server's sub-protocol", async () => {
  await using proxied = await proxiedSite();
  const { dev, server } = proxied;
  const socket = new WebSocket(
    `${server.url.replace("http:", "ws:")}live?token=abc`,
    ["vite-hmr"],
  );
  socket.binaryType = "arraybuffer";
  const messages: (string | ArrayBuffer)[] = [];
  const next = () =>
    new Promise<string | ArrayBuffer>((resolve, reject) => {
      const take = () => {
        if (messages.length > 0) return resolve(messages.shift()!);
        socket.addEventListener("message", take, { once: true });
      };
      socket.addEventListener("error", () => reject(new Error("error")), {
        once: true,
      });
      take();
    });
  socket.onmessage = (event) => messages.push(event.data);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error("no WebSocket through the proxy"));
  });
  assert.equal(socket.protocol, "vite-hmr");
  assert.equal(await next(), "connected");
  socket.send("hello");
  assert.equal(await next(), "echo: hello");
  socket.send(new Uint8Array([0, 255, 7]));
  assert.deepEqual(
    new Uint8Array(await next() as ArrayBuffer),
    new Uint8Array([0, 255, 7]),
  );
  assert.equal(dev.seen.at(-1)?.path, "/live?token=abc");
  const closed = new Promise((resolve) => socket.onclose = resolve);
  socket.close(1000);
  await closed;
  assert.equal(await server.stop(), 0);
});

Deno.test("editor serve --proxy answers 502 JSON when the dev server does not answer", async () => {
  await using site = await tempSite();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await using server = await serveCheckout(site.root, {
    args: ["--proxy", `http://127.0.0.1:${port}`],
  });
  const response = await fetch(`${server.url}en/`);
  assert.equal(response.status, 502);
  assert.deepEqual(await response.json(), { error: "unavailable" });
  await server.stop();
});

Deno.test("editor serve refuses a --proxy that is not an http URL, a --site that is not a folder, and both at once, with one line", async () => {
  await using site = await tempSite();
  const cases: [string[], string][] = [
    [
      ["--proxy", "ftp://127.0.0.1:21"],
      "editor: --proxy: ftp://127.0.0.1:21 is not an http: or https: URL\n",
    ],
    [
      ["--site", join(site.root, "dist")],
      `editor: --site ${
        join(site.root, "dist")
      } is not a folder: pass the built site's folder (e.g. dist)\n`,
    ],
    [
      ["--site", site.root, "--proxy", "http://127.0.0.1:4321"],
      "editor: --site and --proxy both name the site: pass one of them\n",
    ],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(
      [
        "serve",
        "--repo",
        site.root,
        "--port",
        "0",
        "--kv",
        ":memory:",
        ...args,
      ],
      "",
      { EDITOR_KEY_HASH: "" },
    );
    assert.equal(run.code, 1, args.join(" "));
    assert.equal(run.stderr, message);
  }
});

/** A loopback server standing for another host: it must receive nothing. */
function otherHost() {
  const hits: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      hits.push(request.url);
      if (request.headers.get("upgrade")?.toLowerCase() === "websocket") {
        const { socket, response } = Deno.upgradeWebSocket(request);
        socket.onopen = () => socket.send("other host");
        return response;
      }
      return new Response("other host: secret");
    },
  );
  return { server, hits, host: `127.0.0.1:${server.addr.port}` };
}

Deno.test("editor serve --proxy never reaches another host: //host, /\\host, ///host, /..//host, /%2e%2e//host, an absolute-form target and a WebSocket upgrade", async () => {
  await using proxied = await proxiedSite();
  const { dev, server } = proxied;
  const other = otherHost();
  try {
    const port = Number(new URL(server.url).port);
    const paths = [
      `//${other.host}/secret`,
      `/\\${other.host}/secret`,
      `///${other.host}/secret`,
      `/..//${other.host}/secret`,
      `/%2e%2e//${other.host}/secret`,
      `/.%2e//${other.host}/secret`,
      `/\\\\${other.host}/secret`,
      `/%2F${other.host}/secret`,
      `http://127.0.0.1:${port}//${other.host}/secret`,
    ];
    for (const path of paths) {
      const before = dev.seen.length;
      const answer = await rawExchange(
        port,
        `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncookie: editor_session=abc\r\nconnection: close\r\n\r\n`,
      );
      assert.doesNotMatch(answer.body, /other host/, path);
      assert.notEqual(answer.status, 500, path);
      if (answer.status === 404 && answer.body === "dev 404") {
        // Answered by the dev server, the path kept as a path there.
        assert.equal(dev.seen.length, before + 1, path);
        assert.match(dev.seen.at(-1)!.path, /^\/.*127\.0\.0\.1/, path);
      } else {
        // Refused in JSON.
        assert.ok(answer.status >= 400 && answer.status < 500, answer.raw);
        assert.match(
          answer.headers.get("content-type") ?? "",
          /^application\/json/,
          path,
        );
      }
    }
    const socket = new WebSocket(
      `${server.url.replace("http:", "ws:")}/${other.host}/live`,
      ["vite-hmr"],
    );
    const first = await new Promise<string>((resolve) => {
      socket.onmessage = (event) => resolve(String(event.data));
      socket.onerror = () => resolve("error");
      socket.onclose = () => resolve("closed");
    });
    assert.equal(first, "connected", "relayed to the dev server");
    assert.equal(dev.seen.at(-1)?.path, `//${other.host}/live`);
    socket.close();
    assert.deepEqual(other.hits, []);
  } finally {
    await other.server.shutdown();
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.doesNotMatch(server.stderr(), /TypeError|Error:|\n\s+at /);
  assert.equal(await server.stop(), 0);
});

Deno.test("editor serve --proxy never sends the browser to another host through a Location on the dev server's origin", async () => {
  await using proxied = await proxiedSite();
  const { server } = proxied;
  const moved = await fetch(`${server.url}scheme-relative`, {
    redirect: "manual",
  });
  await moved.body?.cancel();
  assert.equal(moved.status, 302);
  const location = moved.headers.get("location") ?? "";
  assert.doesNotMatch(location, /^(\/\/|\/\\|\\)/);
  const target = new URL(location, server.url);
  assert.equal(target.origin, new URL(server.url).origin);
  assert.equal(target.pathname, "//evil.example/x");
  assert.equal(target.search, "?y=1");
  assert.equal(await server.stop(), 0);
});

Deno.test("editor serve --proxy drops the headers named in Connection, both ways", async () => {
  await using site = await tempSite();
  // A dev server written by hand, so that its answer can name headers in Connection.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: string[] = [];
  const serving = (async () => {
    for await (const connection of listener) {
      const buffer = new Uint8Array(65_536);
      let text = "";
      while (!text.includes("\r\n\r\n")) {
        const read = await connection.read(buffer);
        if (read === null) break;
        text += new TextDecoder().decode(buffer.subarray(0, read));
      }
      received.push(text);
      await connection.write(
        new TextEncoder().encode(
          "HTTP/1.1 200 OK\r\nconnection: close, x-dev-hop\r\nx-dev-hop: secret\r\nkeep-alive: timeout=5\r\nx-dev-kept: yes\r\ncontent-length: 2\r\n\r\nok",
        ),
      );
      connection.close();
    }
  })();
  const devPort = (listener.addr as Deno.NetAddr).port;
  try {
    await using server = await serveCheckout(site.root, {
      args: ["--proxy", `http://127.0.0.1:${devPort}`],
    });
    const port = Number(new URL(server.url).port);
    const answer = await rawExchange(
      port,
      `GET /en/ HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close, x-client-hop\r\nx-client-hop: secret\r\nx-client-kept: yes\r\n\r\n`,
    );
    assert.equal(answer.status, 200, answer.raw);
    assert.equal(answer.body, "ok");
    assert.equal(answer.headers.get("x-dev-kept"), "yes");
    assert.equal(answer.headers.get("x-dev-hop"), null);
    assert.equal(answer.headers.get("keep-alive"), null);
    const upstream = received.at(-1)!.toLowerCase();
    assert.match(upstream, /\r\nx-client-kept: yes\r\n/);
    assert.doesNotMatch(upstream, /x-client-hop/);
    await server.stop();
  } finally {
    listener.close();
    await serving.catch(() => {});
  }
});

Deno.test("editor serve --proxy starts and proxies without a Deno warning", async () => {
  await using proxied = await proxiedSite();
  const { server } = proxied;
  for (let index = 0; index < 3; index++) {
    const page = await fetch(`${server.url}en/`);
    assert.equal(page.status, 200);
    await page.text();
  }
  const echo = await fetch(`${server.url}echo`, { method: "POST", body: "x" });
  await echo.text();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(await server.stop(), 0);
  // Only the notice of the key for this run: no warning from Deno (such as
  // "request.signal aborts on successful responses") and none of ours.
  const lines = server.stderr().split("\n").filter((line) =>
    line !== "" &&
    !/^No EDITOR_KEY_HASH: |^\(it is shown once|^Stopping$/.test(line)
  );
  assert.deepEqual(lines, []);
});

Deno.test("editor serve --proxy cuts off a request body that stops arriving with 408 JSON, and serves other clients meanwhile", async () => {
  await using proxied = await proxiedSite({ EDITOR_BODY_IDLE_MS: "800" });
  const { server } = proxied;
  const port = Number(new URL(server.url).port);
  const host = `127.0.0.1:${port}`;
  const started = performance.now();
  let done = false;
  const stalled = rawExchange(
    port,
    `POST /collect HTTP/1.1\r\nhost: ${host}\r\ncontent-length: 1000\r\n\r\nfirst bytes`,
  ).finally(() => done = true);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const other = await fetch(`${server.url}en/`);
  assert.equal(other.status, 200);
  await other.text();
  assert.equal(done, false, "answered before the idle time");
  const answer = await stalled;
  assert.equal(answer.status, 408, answer.raw);
  assert.deepEqual(JSON.parse(answer.body), { error: "request_timeout" });
  assert.equal(
    answer.headers.get("content-type"),
    "application/json; charset=utf-8",
  );
  assert.equal(answer.headers.get("cache-control"), "no-store");
  assert.ok(performance.now() - started >= 800);
  const whole = await fetch(`${server.url}collect`, {
    method: "POST",
    body: "x".repeat(5000),
  });
  assert.equal(await whole.text(), "collected 5000");
  assert.equal(await server.stop(), 0);
  assert.doesNotMatch(server.stderr(), /Error|\n\s+at /);
});

Deno.test("editor serve --proxy never passes the editor's session cookie to the dev server, and passes the site's own cookies", async () => {
  await using proxied = await proxiedSite();
  const { dev, server } = proxied;
  const page = await fetch(`${server.url}en/`, {
    headers: {
      cookie: "theme=dark; editor_session=secret-token; editor_edit=1",
    },
  });
  await page.text();
  assert.equal(
    dev.seen.at(-1)?.headers.get("cookie"),
    "theme=dark; editor_edit=1",
  );
  const only = await fetch(`${server.url}en/`, {
    headers: { cookie: "editor_session=secret-token" },
  });
  await only.text();
  assert.equal(dev.seen.at(-1)?.headers.get("cookie"), null);
  const socket = new WebSocket(`${server.url.replace("http:", "ws:")}live`, {
    protocols: ["vite-hmr"],
    headers: { cookie: "editor_session=secret-token; theme=dark" },
  });
  await new Promise((resolve, reject) => {
    socket.onmessage = resolve;
    socket.onerror = () => reject(new Error("no WebSocket"));
  });
  assert.equal(dev.seen.at(-1)?.headers.get("cookie"), "theme=dark");
  const closed = new Promise((resolve) => socket.onclose = resolve);
  socket.close();
  await closed;
  assert.equal(await server.stop(), 0);
});
