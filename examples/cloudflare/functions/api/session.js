import { createSessionRoute } from "@inpage/editor";

export const onRequestGet = createSessionRoute().onRequestGet;
