import { createUploadRoute } from "@inpage/editor";

export const onRequestPost = createUploadRoute().onRequestPost;
