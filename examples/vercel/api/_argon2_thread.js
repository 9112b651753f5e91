// One key check's argon2id hash, computed in a worker thread started by
// _editor.js with the job as its workerData; posts the hash and ends.

import { parentPort, workerData } from "node:worker_threads";
import { argon2Hash } from "@inpage/editor";

const hash = await argon2Hash(workerData);
parentPort.postMessage(hash, [hash.buffer]);
