/**
 * The bytes of the images chosen in the editor and not uploaded yet. A
 * chosen image is named in the page's changes by an object URL
 * (`blob:…`), which the page shows at once; its bytes are kept in memory
 * and in the browser's IndexedDB (beside the draft, see
 * `image_store.ts`), and uploaded only when its page is published, just
 * before the page's save (`../flows/publish.ts`, through `upload.ts`): an
 * image chosen and then discarded never reaches the repository. After a
 * reload, the draft's images are read back from IndexedDB under new
 * object URLs.
 *
 * @example
 * ```ts
 * import { ChosenImages, memoryImageStore } from "./images.ts";
 *
 * const images = new ChosenImages(memoryImageStore());
 * const src = images.add(new Blob(["…"], { type: "image/webp" }), "team.webp");
 * console.assert(images.has(src));
 * ```
 *
 * @module
 */

import type { StoredImage } from "../state/images.ts";

/** A chosen image: its bytes and the file name to upload it as. */
export interface ChosenImage {
  /** The bytes (WebP, JPEG or PNG). */
  blob: Blob;
  /** The file name, with its extension. */
  name: string;
}

/** Where chosen images are kept across a reload (IndexedDB). */
export interface ImageStore {
  /** Keeps an image under a key. */
  put(key: string, image: ChosenImage): Promise<void>;
  /** Reads an image back. */
  get(key: string): Promise<ChosenImage | undefined>;
  /** Forgets an image. */
  delete(key: string): Promise<void>;
}

export type { StoredImage };

/**
 * A store in memory (no IndexedDB: tests, or a browser that refuses it).
 *
 * @returns the store
 */
export function memoryImageStore(): ImageStore {
  const held = new Map<string, ChosenImage>();
  return {
    put: (key, image) => Promise.resolve(void held.set(key, image)),
    get: (key) => Promise.resolve(held.get(key)),
    delete: (key) => Promise.resolve(void held.delete(key)),
  };
}

/** The images chosen in the editor; see the module doc. */
export class ChosenImages {
  readonly #store: ImageStore;
  readonly #held = new Map<string, ChosenImage>();
  readonly #uploaded = new Map<string, StoredImage>();

  /**
   * Starts with no image.
   *
   * @param store where images are kept across a reload
   */
  constructor(store: ImageStore = memoryImageStore()) {
    this.#store = store;
  }

  /**
   * Keeps a chosen image.
   *
   * @param blob its bytes
   * @param name its file name
   * @returns the object URL that names it in the changes
   */
  add(blob: Blob, name: string): string {
    const src = URL.createObjectURL(blob);
    this.#held.set(src, { blob, name });
    void this.#store.put(src, { blob, name });
    return src;
  }

  /**
   * Whether an object URL names a chosen image of this session.
   *
   * @param src the `src`
   * @returns whether it is held
   */
  has(src: string): boolean {
    return this.#held.has(src);
  }

  /**
   * Reads a draft's images back under new object URLs.
   *
   * @param sources the object URLs the draft names
   * @returns the new URL of each image found
   */
  async revive(sources: Iterable<string>): Promise<Map<string, string>> {
    const renamed = new Map<string, string>();
    for (const old of sources) {
      if (this.#held.has(old)) continue;
      const image = await this.#store.get(old);
      if (!image) continue;
      const src = this.add(image.blob, image.name);
      await this.#store.delete(old);
      renamed.set(old, src);
    }
    return renamed;
  }

  /**
   * Uploads images (each once: one already uploaded answers what it got).
   *
   * @param sources the object URLs naming them
   * @param upload the upload of one file under a name
   * @returns each object URL's stored image
   * @throws what the upload throws, or an `Error` when an image is no
   *   longer kept
   */
  async upload(
    sources: Iterable<string>,
    upload: (file: File, name: string) => Promise<StoredImage>,
  ): Promise<Map<string, StoredImage>> {
    const stored = new Map<string, StoredImage>();
    for (const src of sources) {
      let image = this.#uploaded.get(src);
      if (!image) {
        const chosen = this.#held.get(src) ?? await this.#store.get(src);
        if (!chosen) throw new Error(`the image ${src} is no longer kept`);
        const file = new File([chosen.blob], chosen.name, {
          type: chosen.blob.type,
        });
        const answer = await upload(
          file,
          chosen.name.replace(/\.[a-z]+$/, ""),
        );
        image = { src: answer.src, width: answer.width, height: answer.height };
        this.#uploaded.set(src, image);
      }
      stored.set(src, image);
    }
    return stored;
  }

  /**
   * Forgets images (after their page is published, or discarded).
   *
   * @param sources the object URLs; all when not given
   */
  forget(sources?: Iterable<string>): void {
    for (const src of [...(sources ?? this.#held.keys())]) {
      this.#held.delete(src);
      this.#uploaded.delete(src);
      void this.#store.delete(src);
      URL.revokeObjectURL(src);
    }
  }
}
