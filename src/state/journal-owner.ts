import { parseUrn } from "../core/urn.js";
import type { PendingOperation } from "./types.js";
import { UserError } from "../core/diagnostic.js";

/**
 * Refuses a journal whose interrupted operations are on resources of another stack (a journal
 * copied or moved by hand): taken as this stack's, the next run would settle another stack's create, and
 * adopt or re-create its object here. Nothing is changed; the message names the journal and what to do.
 *
 * @example checkJournalOwner(scan.prep.pending, "journal.ndjson", { stack: "dev" });
 */
export function checkJournalOwner(pending: readonly PendingOperation[], journalName: string, owner: { stack: string }): void {
  for (const p of pending) {
    let parts: { stack: string; project: string } | undefined;
    try {
      parts = parseUrn(p.urn);
    } catch {
      parts = undefined;
    }
    // The stack alone decides: a state folder holds one project (its snapshot says which), and the stack
    // is what a journal copied between stack folders gets wrong.
    if (parts && parts.stack === owner.stack) continue;
    const whose = parts ? `a resource of stack "${parts.stack}" of project "${parts.project}"` : "which is not a Cairn URN";
    throw new UserError(
      `${journalName} holds an interrupted ${p.kind} of ${p.urn}, ${whose}, not of stack "${owner.stack}": ` +
        `the journal belongs to another stack (copied or moved here?). Nothing was changed, and the file was left as it is. Put it back where it belongs (that stack's next run settles it), or move it aside if it is stale.`,
    );
  }
}
