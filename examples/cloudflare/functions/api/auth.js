import { createAuthRoute } from "@inpage/editor";

const auth = createAuthRoute();
export const onRequestPost = auth.onRequestPost;
export const onRequestDelete = auth.onRequestDelete;
