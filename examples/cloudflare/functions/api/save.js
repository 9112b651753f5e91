import { createSaveRoute } from "@inpage/editor";

export const onRequestPost = createSaveRoute({ locales: ["en", "fr"] })
  .onRequestPost;
