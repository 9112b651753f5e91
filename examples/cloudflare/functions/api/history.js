import { createHistoryRoute } from "@inpage/editor";

export const onRequestGet = createHistoryRoute({ locales: ["en", "fr"] })
  .onRequestGet;
