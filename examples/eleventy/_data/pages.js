// Every page file of src/content/pages/{lang}/, read on each build: its path
// (the container's data-inpage-page), its language, its name, its URL and its
// data. site.json holds what every page of a language shows (the title, the
// navigation, the footer): it has no URL of its own.
import { readdirSync, readFileSync } from "node:fs";

const PAGES = "src/content/pages";

function files(folder, inside = "") {
  return readdirSync(`${folder}/${inside}`, { withFileTypes: true })
    .flatMap((entry) => {
      const path = inside ? `${inside}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return files(folder, path);
      return entry.name.endsWith(".json") ? [path] : [];
    }).sort();
}

export default function () {
  const all = files(PAGES).map((file) => {
    const [lang, ...rest] = file.replace(/\.json$/, "").split("/");
    const name = rest.join("/");
    return {
      path: `${PAGES}/${file}`,
      lang,
      name,
      url: name === "site"
        ? undefined
        : name === "home"
        ? `/${lang}/`
        : `/${lang}/${name}/`,
      data: JSON.parse(readFileSync(`${PAGES}/${file}`, "utf8")),
    };
  });
  const site = Object.fromEntries(
    all.filter((entry) => entry.name === "site").map((entry) => [
      entry.lang,
      entry,
    ]),
  );
  const posts = all.filter((entry) => entry.name.startsWith("posts/"))
    .sort((a, b) => String(b.data.date).localeCompare(String(a.data.date)));
  return {
    site,
    home: all.filter((entry) => entry.name === "home"),
    about: all.filter((entry) => entry.name === "about"),
    posts,
  };
}
