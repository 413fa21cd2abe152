// Compile-time tests for the state roles: checked by `tsc --noEmit` (the project's typecheck includes
// tests/), never executed. Each `@ts-expect-error` must be needed, or tsc fails with "Unused
// '@ts-expect-error' directive".
import type { OutputReader, StateBackend, StateLocker, StateReader, StackTransfer } from "../../src/state/backend.js";
import { readStackOutputs } from "../../src/state/read-outputs.js";
import { migrateStack } from "../../src/state/migrate.js";
import type { StackAccess } from "../../src/state/stack-access.js";
import type { StoreBackend } from "../../src/state/store-backend.js";
import type { FileStore } from "../../src/state/file-store.js";
import type { MemoryStore } from "../../src/state/memory-backend.js";
import type { PgStore } from "../../src/state/pg/pg-store.js";
import type { S3Store } from "../../src/state/s3/s3-store.js";
import type { StateStore } from "../../src/state/store.js";

declare const outputs: OutputReader;
declare const reader: StateReader;
declare const access: StackAccess;
declare const mover: StateLocker & StackTransfer;
const who = { project: "app", stack: "prod" };
const target = { project: "network", stack: "prod" };

export function roleTests(): void {
  // Reading another stack's outputs needs nothing but an output reader…
  void readStackOutputs(outputs, who, target);
  // @ts-expect-error …and a state reader cannot stand in for one.
  void readStackOutputs(reader, who, target);

  // What StackAccess opens is read-only: it reads state and outputs…
  void access.open("network", "prod").readOutputs();
  void access.open("network", "prod").load();
  // @ts-expect-error …but cannot lock the other stack,
  void access.open("network", "prod").lock();
  // @ts-expect-error …nor open a journal on it.
  void access.open("network", "prod").openJournal;

  // Migrating needs the lock and the whole stack on both sides, nothing more.
  void migrateStack(mover, mover);
  // @ts-expect-error an output reader cannot be migrated
  void migrateStack(outputs, mover);
}

// Every implementation is every role of its kind: the store-backed backend is a StateBackend, each store a StateStore.
export type Checks = [
  StoreBackend extends StateBackend ? true : never,
  FileStore extends StateStore ? true : never,
  MemoryStore extends StateStore ? true : never,
  PgStore extends StateStore ? true : never,
  S3Store extends StateStore ? true : never,
];
export const checks: Checks = [true, true, true, true, true];
