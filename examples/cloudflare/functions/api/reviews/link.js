import { createReviewLinkRoute } from "@inpage/editor";

export const onRequest = createReviewLinkRoute().onRequest;
