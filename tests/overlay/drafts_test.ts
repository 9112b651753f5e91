import assert from "node:assert/strict";
import {
  clearDraft,
  draftKey,
  loadDraft,
  saveDraft,
} from "../../overlay/drafts.ts";

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const PATH = "src/content/pages/en/home.json";

Deno.test("a draft is kept per page and version, and offered back only for that version", () => {
  const storage = memoryStorage();
  const changes = new Map<string, unknown>([["/title", "New"], ["/image", {
    src: "a-000000000000.webp",
    width: 2,
    height: 1,
  }]]);
  saveDraft(storage, PATH, "v1", changes, 1234);
  assert.deepEqual(loadDraft(storage, PATH, "v1"), { savedAt: 1234, changes });
  assert.equal(loadDraft(storage, PATH, "v2"), undefined);
  assert.equal(
    loadDraft(storage, "src/content/pages/fr/home.json", "v1"),
    undefined,
  );
  clearDraft(storage, PATH, "v1");
  assert.equal(loadDraft(storage, PATH, "v1"), undefined);
});

Deno.test("no changes forget the draft; a damaged draft is ignored", () => {
  const storage = memoryStorage();
  saveDraft(storage, PATH, "v1", new Map([["/title", "x"]]));
  saveDraft(storage, PATH, "v1", new Map());
  assert.equal(storage.length, 0);
  storage.setItem(draftKey(PATH, "v1"), "{not json");
  assert.equal(loadDraft(storage, PATH, "v1"), undefined);
  storage.setItem(draftKey(PATH, "v1"), JSON.stringify({ savedAt: "x" }));
  assert.equal(loadDraft(storage, PATH, "v1"), undefined);
});
