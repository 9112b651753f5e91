// One key check's argon2id hash, computed in a Worker started by server.js:
// answers the job it receives with the hash.

import { argon2Hash } from "@inpage/editor";

self.onmessage = async (event) => {
  const hash = await argon2Hash(event.data);
  postMessage(hash, [hash.buffer]);
};
