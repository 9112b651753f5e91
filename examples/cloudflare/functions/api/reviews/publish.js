import { createReviewPublishRoute } from "@inpage/editor";

export const onRequest = createReviewPublishRoute().onRequest;
