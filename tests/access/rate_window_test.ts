import assert from "node:assert/strict";
import { createRouter } from "../../mod.ts";
import { clientAddress, groupAddress } from "../../lib/http/client_address.ts";
import { fastHash, from, postJson, testEnv } from "../support/helpers.ts";

// The window's own rules, under contention and across handles, are in
// tests/support/kv_store_cases.ts, run on every store (kv_store_test.ts).

Deno.test("two processes sharing one KV file hold one auth budget", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/kv.sqlite3`;
  const hash = await fastHash("the key");
  try {
    using kv = await Deno.openKv(file);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        new URL("../support/rate_child.ts", import.meta.url).pathname,
        file,
        "10",
        "192.0.2.77",
        hash,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let output = "";
    while (!output.includes("ready\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("the child ended before it was ready");
      output += value;
    }
    const router = createRouter({ locales: ["en"] });
    const env = testEnv(kv, { EDITOR_KEY_HASH: hash });
    await kv.set(["test", "go"], true);
    const mine = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const response = await router.handle(
          postJson("/api/auth", { key: "wrong" }),
          env,
          from("192.0.2.77"),
        );
        await response.body?.cancel();
        return response.status;
      }),
    );
    while (true) {
      const { value, done } = await lines.read();
      if (done) break;
      output += value;
    }
    assert.equal((await child.status).code, 0);
    const theirs: number[] = JSON.parse(
      output.trim().split("\n").at(-1) ?? "[]",
    );
    assert.equal(theirs.length, 10);
    const all = [...mine, ...theirs];
    assert.equal(
      all.filter((s) => s === 401).length,
      5,
      `statuses ${all.join(",")}`,
    );
    assert.equal(all.filter((s) => s === 429).length, 15);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("client addresses are grouped: IPv4 as is, IPv6 by /64, mapped IPv4 as IPv4", () => {
  const groups = {
    "192.0.2.1": "192.0.2.1",
    "2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
    "2001:DB8:1:2::9": "2001:db8:1:2::/64",
    "[2001:db8::1]": "2001:db8:0:0::/64",
    "fe80::1%eth0": "fe80:0:0:0::/64",
    "::ffff:192.0.2.1": "192.0.2.1",
    "::1": "0:0:0:0::/64",
  };
  for (const [address, group] of Object.entries(groups)) {
    assert.equal(groupAddress(address), group, address);
  }
  for (
    const bad of [
      "",
      "localhost",
      "256.1.1.1",
      "1.2.3",
      "1::2::3",
      "12345::",
      "::ffff:1.2.3.4.5",
      "1:2:3:4:5:6:7:8:9",
      "01.2.3.4",
    ]
  ) {
    assert.equal(groupAddress(bad), undefined, bad);
  }
});

Deno.test("the proxy header is used only when configured, read from its last address", () => {
  const request = new Request("https://site.example/", {
    headers: { "x-forwarded-for": "198.51.100.7, 203.0.113.5" },
  });
  assert.equal(clientAddress(request, {}, from("10.0.0.1")), "10.0.0.1");
  /** The address of a request from 10.0.0.1 whose proxy header is set. */
  const behindProxy = (header: string, value: string) =>
    clientAddress(
      new Request("https://site.example/", { headers: { [header]: value } }),
      { EDITOR_CLIENT_IP_HEADER: header },
      from("10.0.0.1"),
    );
  assert.equal(
    behindProxy("x-forwarded-for", "198.51.100.7, 203.0.113.5"),
    "203.0.113.5",
    "the entry the proxy appended, not the one the client sent",
  );
  assert.equal(
    behindProxy("cf-connecting-ip", "2001:db8:5:6::1"),
    "2001:db8:5:6::/64",
  );
  assert.equal(behindProxy("x-forwarded-for", "not-an-ip"), "10.0.0.1");
  const junk = new Request("https://site.example/", {
    headers: { "x-forwarded-for": "not-an-ip" },
  });
  assert.equal(clientAddress(junk, {}, undefined), "shared");
});
