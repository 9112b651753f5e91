// The overlay's files under /_inpage/ (compressed, cached by their hashed
// names), from the package itself: no static asset to copy or configure.
import { serveOverlayAsset } from "@inpage/editor/overlay";

export const onRequest = async ({ request }) =>
  await serveOverlayAsset(request) ?? new Response(null, { status: 404 });
