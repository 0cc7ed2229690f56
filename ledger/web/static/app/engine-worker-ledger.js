// The worker engine's `phoneLedger` (engine.js): what only a ledger kept in this phone
// can do — export it to a file, import a file, sync it with a hub. The history screen
// calls these and nothing of the worker's files or sync itself.

import { shareOrDownload } from "./engine-worker-files.js";
import { keptLink, syncWithHub } from "./engine-worker-sync.js";
import { newId } from "./model-ids.js";

export function phoneLedger(engine) {
  return {
    /** The hub link last synced with ("" before the first sync). */
    keptLink,
    /** The ledger as the CLI's JSON export, shared or downloaded: {name, sessions}. */
    async exportFile() {
      const found = await engine.exportLedger();
      await shareOrDownload(found.name, found.text);
      return found;
    },
    /** A picked File (an export or a score sheet) merged in by entry uuid: the import's report. */
    async importFile(file) {
      return engine.importFile(newId(), { text: await file.text(), name: file.name });
    },
    /** Push this phone's ledger to the hub behind `link`, then pull the hub's: {pushed, pulled};
     * rejects with an error whose `code` is "link", "unreachable" or "refused". */
    sync: (link, lang) => syncWithHub(engine, link, lang),
  };
}
