import { createReviewsRoute } from "@inpage/editor";

// GET (the open reviews, one, or a preview by its token), POST, DELETE.
export const onRequest = createReviewsRoute({ locales: ["en", "fr"] })
  .onRequest;
