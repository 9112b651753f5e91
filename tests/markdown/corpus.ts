/**
 * The markdown corpus of `tests/fixtures/markdown/` (see its README): real
 * documents and the CommonMark spec's examples, by name.
 *
 * @module
 */

const FOLDER = new URL("../fixtures/markdown/", import.meta.url);

/** One document of the corpus. */
export interface CorpusDocument {
  /** `folder/file.md`, or `spec N` for the spec's example N. */
  name: string;
  /** Its markdown. */
  markdown: string;
}

/** Every document of the corpus, files first, then the spec's examples. */
export async function markdownCorpus(): Promise<CorpusDocument[]> {
  const documents: CorpusDocument[] = [];
  for (const folder of ["eleventy-base-blog", "markdown-it"]) {
    const names: string[] = [];
    for await (const entry of Deno.readDir(new URL(folder, FOLDER))) {
      if (entry.name.endsWith(".md")) names.push(entry.name);
    }
    for (const name of names.sort()) {
      documents.push({
        name: `${folder}/${name}`,
        markdown: await Deno.readTextFile(new URL(`${folder}/${name}`, FOLDER)),
      });
    }
  }
  const examples: { example: number; markdown: string }[] = JSON.parse(
    await Deno.readTextFile(new URL("commonmark-spec/examples.json", FOLDER)),
  );
  for (const { example, markdown } of examples) {
    documents.push({ name: `spec ${example}`, markdown });
  }
  return documents;
}
