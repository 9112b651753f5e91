/**
 * The public test data kept beside this repository (`../shared/corpora/`):
 * where it is, and the files of one of its folders.
 *
 * @module
 */

/** The corpora folder. */
export const CORPORA: URL = new URL(
  "../../../shared/corpora/",
  import.meta.url,
);

/** One file of a corpus folder. */
export interface CorpusFile {
  /** Its name in the folder. */
  name: string;
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its bytes decoded as UTF-8. */
  text: string;
}

/**
 * The files of a corpus folder, in the order the folder lists them.
 *
 * @param folder the folder under the corpora, e.g. `xss/svg_xss/`
 * @returns each file, read
 */
export async function* corpusFiles(
  folder: string,
): AsyncGenerator<CorpusFile> {
  const url = new URL(folder.endsWith("/") ? folder : `${folder}/`, CORPORA);
  for await (const entry of Deno.readDir(url)) {
    const bytes = await Deno.readFile(
      new URL(encodeURIComponent(entry.name), url),
    );
    yield { name: entry.name, bytes, text: new TextDecoder().decode(bytes) };
  }
}

/**
 * Every line of every file of a corpus folder, split on `\n` (empty lines
 * included), file after file.
 *
 * @param folder the folder under the corpora
 * @returns each line
 */
export async function* corpusLines(folder: string): AsyncGenerator<string> {
  for await (const { text } of corpusFiles(folder)) yield* text.split("\n");
}
