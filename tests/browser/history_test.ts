/**
 * Named editors and a page's history in the overlay, in Debian's Chromium on
 * the demo (`deno task demo` with `EDITOR_KEYS`): alice and bob publish in
 * turn, each seeing "Logged in as …"; the History panel lists both with
 * their names and messages; bob previews alice's version, read-only, and
 * restores one field, which is an undoable change published under his name.
 * The panel and the banner are photographed at 1280×800 and 390×844
 * (tests/browser/artifacts/) and audited with axe-core.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import axe from "axe-core";
import type { Page } from "playwright-core";
import {
  ALICE,
  ARTIFACTS,
  BOB,
  launchChromium,
  logInAs,
  namedEditors,
  openMore,
  region,
  shootBothSizes,
  startDemo,
  typeAtEnd,
  waitStatus,
} from "./overlay_support.ts";

declare const document: unknown;

async function publish(page: Page, message: string): Promise<void> {
  await page.getByLabel("Message", { exact: true }).fill(message);
  await page.getByRole("button", { name: "Publish" }).click();
  await waitStatus(page, "Published");
}

/** Photographs the page at both sizes and audits it with axe-core. */
async function shoot(page: Page, name: string): Promise<void> {
  await shootBothSizes(page, `history-${name}`);
  await page.addScriptTag({ content: axe.source });
  const found = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return result.violations.flatMap((violation: any) =>
      // deno-lint-ignore no-explicit-any
      violation.nodes.map((node: any) => ({
        id: violation.id,
        impact: node.impact ?? violation.impact,
        target: JSON.stringify(node.target),
        html: String(node.html).slice(0, 120),
      }))
    );
  });
  const serious = found.filter((
    item: { impact: string; target: string; html: string },
  ) =>
    (item.impact === "serious" || item.impact === "critical") &&
    (item.target.includes("data-inpage-overlay") ||
      /data-inpage-(?:text|html|image)/.test(item.html))
  );
  assert.deepEqual(serious, [], `${name}: ${JSON.stringify(serious)}`);
}

Deno.test("in Chromium: two named editors publish, the History panel lists them, a past field is previewed and restored", async (t) => {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  await using site = await startDemo({ EDITOR_KEYS: await namedEditors() });
  await using browser = await launchChromium();
  const original = await site.page();
  let bob: Page;

  await t.step(
    "1. alice, then bob, publish; each sees who is logged in; nobody asks who before logging in",
    async () => {
      const asked: string[] = [];
      const alice = await logInAs(browser, site, ALICE, { asked });
      await openMore(alice);
      await alice.getByText("Logged in as Alice Martin").waitFor();
      assert.equal(asked.length, 1, "asked once, after the login");
      await typeAtEnd(alice, "Edit title", " (alice)");
      await typeAtEnd(alice, "Edit heading, section 3", " (alice)");
      await publish(alice, "Alice's title");
      assert.equal(
        (await site.git("log", "-1", "--format=%an|%s")).trim(),
        "Alice Martin|Alice's title",
      );
      await alice.context().close();

      bob = await logInAs(browser, site, BOB);
      await openMore(bob);
      await bob.getByText("Logged in as Bob Stone").waitFor();
      await typeAtEnd(bob, "Edit title", " and bob");
      await typeAtEnd(bob, "Edit heading, section 1", " (bob)");
      await publish(bob, "Bob's turn");
      assert.equal(
        (await site.git("log", "-1", "--format=%an|%s")).trim(),
        "Bob Stone|Bob's turn",
      );
    },
  );

  await t.step(
    "2. the History panel lists both publishes, newest first, with names and messages",
    async () => {
      await openMore(bob);
      await bob.getByRole("button", { name: "History", exact: true }).click();
      const panel = bob.getByRole("dialog", { name: "History" });
      await panel.getByText("Alice's title").waitFor();
      const entries = await panel.getByRole("listitem").allInnerTexts();
      assert.ok(entries.length >= 3, entries.join("\n"));
      assert.match(
        entries[0]!,
        /Bob Stone[\s\S]*Bob's turn[\s\S]*Current version/,
      );
      assert.match(entries[1]!, /Alice Martin[\s\S]*Alice's title/);
      assert.match(entries[0]!, /\d{4}|\d{1,2}:\d{2}/, "a readable time");
      await shoot(bob, "panel");
    },
  );

  await t.step(
    "3. alice's version previewed in place, read-only; one field restored, undoable; published",
    async () => {
      const panel = bob.getByRole("dialog", { name: "History" });
      await panel.getByRole("button", { name: /Alice's title/ }).click();
      const banner = bob.getByRole("region", {
        name: /^Viewing the version of/,
      });
      await banner.waitFor();
      assert.match(
        await banner.innerText(),
        /Viewing the version of .+ by Alice Martin — Alice's title/,
      );
      const title = region(bob, "Edit title");
      assert.equal(
        await title.innerText(),
        `${original.title} (alice)`,
      );
      const heading = region(bob, "Edit heading, section 1");
      assert.equal(
        await heading.innerText(),
        (original.sections as Array<Record<string, string>>)[0]!.heading,
      );
      // Read-only, without the editing outlines, and no bar meanwhile.
      assert.equal(await title.getAttribute("contenteditable"), "false");
      assert.equal(
        await bob.evaluate(() =>
          // deno-lint-ignore no-explicit-any
          (document as any).documentElement.hasAttribute("data-inpage-editing")
        ),
        false,
      );
      await title.click();
      await bob.keyboard.type("typed");
      assert.equal(await title.innerText(), `${original.title} (alice)`);
      assert.equal(
        await bob.getByRole("button", { name: "Publish" }).isVisible(),
        false,
      );
      await shoot(bob, "preview");

      await bob.getByRole("button", { name: "Restore this field: Title" })
        .click();
      await bob.getByRole("button", { name: "Restored: Title" }).waitFor();
      await bob.getByText("“Title” restored as an unsaved change.", {
        exact: false,
      }).waitFor();
      await bob.getByRole("button", { name: "Back to current" }).click();
      await waitStatus(bob, "1 unsaved change");
      assert.equal(await title.innerText(), `${original.title} (alice)`);
      assert.equal(
        await heading.innerText(),
        `${
          (original.sections as Array<Record<string, string>>)[0]!.heading
        } (bob)`,
      );
      assert.equal(
        await title.getAttribute("contenteditable"),
        "plaintext-only",
      );
      // A restore is a change like any other: undo, redo.
      await bob.getByRole("button", { name: "Undo" }).click();
      await waitStatus(bob, "No unsaved changes");
      assert.equal(
        await title.innerText(),
        `${original.title} (alice) and bob`,
      );
      await bob.getByRole("button", { name: "Redo" }).click();
      await waitStatus(bob, "1 unsaved change");
      assert.match(
        await bob.getByLabel("Message", { exact: true }).inputValue(),
        /^Restore title as of /,
      );
      await publish(bob, "Alice's title back");
    },
  );

  await t.step(
    "4. the file has the old title and everything else current; git names bob as the author",
    async () => {
      const home = await site.page();
      const sections = home.sections as Array<Record<string, string>>;
      const before = original.sections as Array<Record<string, string>>;
      assert.equal(home.title, `${original.title} (alice)`);
      assert.equal(sections[0]!.heading, `${before[0]!.heading} (bob)`);
      assert.equal(sections[2]!.heading, `${before[2]!.heading} (alice)`);
      assert.deepEqual(
        { ...home, title: "", sections: [] },
        { ...original, title: "", sections: [] },
      );
      assert.equal(
        (await site.git("log", "-1", "--format=%an")).trim(),
        "Bob Stone",
      );
      assert.equal(
        (await site.git("log", "-1", "--format=%s")).trim(),
        "Alice's title back",
      );
    },
  );

  await t.step(
    "5. Restore this version makes every field of it an unsaved change against the current version",
    async () => {
      await openMore(bob);
      await bob.getByRole("button", { name: "History", exact: true }).click();
      const panel = bob.getByRole("dialog", { name: "History" });
      const alices = panel.getByRole("button", { name: /Alice's title$/ });
      await alices.click();
      // Escape is Back to current.
      const banner = bob.getByRole("region", { name: /^Viewing the version/ });
      await banner.waitFor();
      await bob.keyboard.press("Escape");
      await banner.waitFor({ state: "detached" });
      await openMore(bob);
      await bob.getByRole("button", { name: "History", exact: true }).click();
      await alices.click();
      await bob.getByRole("button", { name: "Restore this version" }).click();
      await waitStatus(bob, "1 unsaved change");
      const sections = original.sections as Array<Record<string, string>>;
      assert.equal(
        await region(bob, "Edit heading, section 1").innerText(),
        sections[0]!.heading,
      );
      await bob.getByRole("button", { name: "Discard all" }).click();
      await bob.getByRole("dialog").getByRole("button", { name: "Discard all" })
        .click();
      await waitStatus(bob, "No unsaved changes");
    },
  );

  await t.step(
    "6. Older pages through the history 30 at a time, down to the first commit",
    async () => {
      // 30 more commits of the page, made with git itself.
      const file = join(site.root, "src/content/pages/en/home.json");
      for (let n = 1; n <= 30; n++) {
        const page = JSON.parse(await Deno.readTextFile(file));
        page.description = `Description ${n}`;
        await Deno.writeTextFile(file, JSON.stringify(page, null, 2) + "\n");
        await site.git("commit", "-qam", `Commit ${n}`);
      }
      await bob.reload();
      await waitStatus(bob, "No unsaved changes");
      await openMore(bob);
      await bob.getByRole("button", { name: "History", exact: true }).click();
      const panel = bob.getByRole("dialog", { name: "History" });
      await panel.getByText("Commit 30").waitFor();
      assert.equal(await panel.getByRole("listitem").count(), 30);
      assert.equal(await panel.getByText("Example site").count(), 0);
      await panel.getByRole("button", { name: "Older" }).click();
      await panel.getByText("Example site").waitFor();
      assert.equal(await panel.getByRole("listitem").count(), 34);
      assert.equal(
        await panel.getByRole("button", { name: "Older" }).isVisible(),
        false,
      );
      await bob.keyboard.press("Escape");
      await panel.waitFor({ state: "detached" });
      await bob.context().close();
    },
  );
});
