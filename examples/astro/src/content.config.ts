// The pages: src/content/pages/{lang}/{page}.json, one entry each, with the
// id "{lang}/{page}" and the file path the overlay needs.
import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";

const pages = defineCollection({
  loader: glob({ pattern: "*/*.json", base: "./src/content/pages" }),
});

export const collections = { pages };
