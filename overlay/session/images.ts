/**
 * Images chosen in the edit session and not uploaded yet. A chosen image
 * is named in the page's changes by an object URL (`blob:…`), which the
 * page shows at once; its bytes are kept in memory and in the browser's
 * IndexedDB (beside the draft), and uploaded only when its page is
 * published, just before the page's save: an image chosen and then
 * discarded never reaches the repository. After a reload, the draft's
 * images are read back from IndexedDB under new object URLs.
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

/** What an upload answers: the stored image. */
export interface StoredImage {
  /** The bare file name stored (`team-1a2b3c4d5e6f.webp`). */
  src: string;
  /** Its width. */
  width: number;
  /** Its height. */
  height: number;
}

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

/** Whether a value is an object with a string `src`. */
function isMedia(value: unknown): value is Record<string, unknown> & {
  src: string;
} {
  return typeof value === "object" && value !== null &&
    typeof (value as { src?: unknown }).src === "string";
}

/**
 * Every `src` naming a chosen image in a value, however deep.
 *
 * @param value a change's value
 * @returns the object URLs found
 */
export function chosenIn(value: unknown): string[] {
  const found: string[] = [];
  const walk = (item: unknown) => {
    if (Array.isArray(item)) item.forEach(walk);
    else if (typeof item === "object" && item !== null) {
      if (isMedia(item) && item.src.startsWith("blob:")) found.push(item.src);
      for (const inner of Object.values(item)) walk(inner);
    }
  };
  walk(value);
  return found;
}

/**
 * A value with each chosen image's `src` (and size) replaced by what its
 * upload stored.
 *
 * @param value a change's value
 * @param stored the stored image of each object URL
 * @returns the value to publish
 */
export function withStored(
  value: unknown,
  stored: ReadonlyMap<string, StoredImage>,
): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => withStored(item, stored));
  }
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = withStored(inner, stored);
  }
  if (isMedia(value)) {
    const image = stored.get(value.src);
    if (image) Object.assign(out, image);
  }
  return out;
}

/** The images chosen in a session; see the module doc. */
export class ChosenImages {
  readonly #store: ImageStore;
  readonly #held = new Map<string, ChosenImage>();
  readonly #uploaded = new Map<string, StoredImage>();
  /**
   * Told when a chosen image has been uploaded: the object URL that named
   * it, and the name it is stored under (what the page names once it is
   * published).
   */
  onStored?: (src: string, stored: string) => void;

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
   * Uploads the images a value names (each once) and answers the value to
   * publish.
   *
   * @param value a change's value
   * @param upload the client's upload
   * @returns the value with the stored names
   */
  async upload(
    value: unknown,
    upload: (file: File, name: string) => Promise<StoredImage>,
  ): Promise<unknown> {
    const sources = chosenIn(value);
    if (sources.length === 0) return value;
    for (const src of sources) {
      if (this.#uploaded.has(src)) continue;
      const image = this.#held.get(src) ?? await this.#store.get(src);
      if (!image) throw new Error(`the image ${src} is no longer kept`);
      const file = new File([image.blob], image.name, {
        type: image.blob.type,
      });
      const { src: stored, width, height } = await upload(
        file,
        image.name.replace(/\.[a-z]+$/, ""),
      );
      this.#uploaded.set(src, { src: stored, width, height });
      this.onStored?.(src, stored);
    }
    return withStored(value, this.#uploaded);
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
