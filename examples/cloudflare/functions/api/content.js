import { createContentRoute } from "@inpage/editor";

export const onRequestGet = createContentRoute({ locales: ["en", "fr"] })
  .onRequestGet;
