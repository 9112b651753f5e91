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
import { text } from "../i18n/mod.ts";
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
  const submit = h(
    "button",
    { class: "primary", type: "submit" },
    text("logIn"),
  );
  const dialog = h("dialog", { "aria-labelledby": "inpage-login-title" });
  const form = h(
    "form",
    { novalidate: true },
    h("h2", { id: "inpage-login-title" }, text("loginTitle")),
    h(
      "label",
      {},
      text("siteKey"),
      key,
      h("span", { class: "hint" }, text("siteKeyHint")),
    ),
    error,
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "button",
        onclick: () => dialog.close("cancel"),
      }, text("cancel")),
      submit,
    ),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (key.value === "") {
      error.textContent = text("typeKey");
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
          ? text("wrongKey")
          : failure.code === "rate_limited"
          ? text("tooManyAttempts", {
            retry: retrySentence(failure.retryAfter),
          })
          : failureSentence(failure)
        : text("loginFailed");
      submit.disabled = false;
      key.select();
    }
  });
  dialog.append(form);
  return await showDialog(root, dialog) === "ok";
}
