import { createReviewScheduleRoute } from "@inpage/editor";

export const onRequest = createReviewScheduleRoute().onRequest;
