/// <reference lib="dom" />
/**
 * The login dialog: the site key, sent through the browser client. A wrong
 * key keeps the dialog open with the key selected; the focus goes back
 * where it was once logged in.
 *
 * @module
 */

import { type Client, EditorError } from "../../client/mod.ts";
import { failureSentence, retrySentence } from "../messages.ts";
import { h, showDialog } from "../ui.ts";

/**
 * Asks for the site key until a login succeeds or the person cancels.
 *
 * @param root the overlay's shadow root
 * @param client the browser client
 * @param notice a sentence to show first (why the key is asked again)
 * @returns whether the person is logged in
 */
export async function askLogin(
  root: ShadowRoot,
  client: Pick<Client, "login">,
  notice?: string,
): Promise<boolean> {
  const key = h("input", {
    type: "password",
    autocomplete: "current-password",
  });
  const error = h("p", { class: "error", role: "alert" }, notice ?? "");
  const submit = h("button", { class: "primary", type: "submit" }, "Log in");
  const dialog = h("dialog", { "aria-labelledby": "inpage-login-title" });
  const form = h(
    "form",
    { novalidate: true },
    h("h2", { id: "inpage-login-title" }, "Log in to edit this site"),
    h(
      "label",
      {},
      "Site key",
      key,
      h("span", { class: "hint" }, "The key the site's owner gave you."),
    ),
    error,
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "button",
        onclick: () => dialog.close("cancel"),
      }, "Cancel"),
      submit,
    ),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (key.value === "") {
      error.textContent = "Type the site key.";
      key.focus();
      return;
    }
    submit.disabled = true;
    error.textContent = "";
    try {
      await client.login(key.value);
      dialog.close("ok");
    } catch (failure) {
      error.textContent = failure instanceof EditorError
        ? failure.code === "unauthorized"
          ? "This key is not right. Check it and try again."
          : failure.code === "rate_limited"
          ? `Too many attempts. ${retrySentence(failure.retryAfter)}`
          : failureSentence(failure)
        : "Logging in failed.";
      submit.disabled = false;
      key.select();
    }
  });
  dialog.append(form);
  return await showDialog(root, dialog) === "ok";
}
