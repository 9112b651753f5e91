/**
 * The one place that uploads an image through the browser client: every
 * chosen image goes up here, at publish, just before the page naming it,
 * kept aside (staged, `?staged=1`) so that the page's save commits it with
 * the page: one commit, and nothing in the repository if the save is
 * refused.
 *
 * @module
 */

import type { Client } from "../../client/mod.ts";
import type { StoredImage } from "../state/images.ts";

/**
 * Uploads one image.
 *
 * @param client the browser client
 * @param file the image's bytes, cropped and converted
 * @param name the name wished for it (the server rewrites it)
 * @returns the stored image
 */
export async function uploadImage(
  client: Pick<Client, "upload">,
  file: Blob,
  name: string,
): Promise<StoredImage> {
  const { src, width, height } = await client.upload(file, name, {
    staged: true,
  });
  return { src, width, height };
}
