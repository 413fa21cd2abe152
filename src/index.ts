/**
 * Cairn: embedded TypeScript infrastructure as code.
 *
 * @example
 * import { program, secret } from "cairn-iac";
 * import { local } from "cairn-iac/local";
 * export default program("hello", () => {
 *   const f = new local.File("config", { path: "out/config.json", content: "{}" });
 *   return { path: f.path };
 * });
 *
 * @module cairn
 */
// First: on a Node.js Cairn does not support, stop with a message before anything else loads.
import "./require-node.js";
// The AWS SDK's error names, for the one retry classification (provider calls, waits, the S3 state backend).
import "./providers/aws/error-kinds.js";
export { program, Program, type ProgramContext, type ProgramFn, type Evaluation, type ProgramOptions, type ProgramSpec } from "./entry/program.js";
export type { EvaluateOptions, Declarations } from "./program/evaluate.js";
export type { Resolvable, Settleable, Resolver, Resolution } from "./program/resolver.js";
export type { Deferral, DeferredDeclaration, Origin, PlanningHooks } from "./program/deferral/deferral.js";
export type { DeferralInfo } from "./program/deferral/deferral-info.js";
export { Config, type ConfigValue } from "./program/config.js";
export { Output, output, all, interpolate, secret, isOutput, type Input, type Inputs, type Unwrap, type ValueState, type OState, type Lifted, type OwnOutputKeys, type OutputBase, type OutputConstructor } from "./program/output.js";
export { OutputMisuseError } from "./program/output-misuse.js";
export { UNKNOWN, containsUnknown } from "./core/unknown.js";
export { Resource, CustomResource, ComponentResource, urnOf, type ResourceOptions, type Alias, type Dependable, type DependsOn } from "./program/resource.js";
export { defineResource, type ResourceClass, type ResourceInstance, type OutputProps, type LookupQuery } from "./program/define.js";
export { makeUrn, parseUrn, type Urn, type UrnParts } from "./core/urn.js";
export { Duration, milliseconds, seconds, minutes, hours, parseDuration, formatDuration } from "./core/duration.js";
export type { CustomTimeouts, PrepareEnv } from "./program/node.js";
export type { Provider, Diff, CheckResult, LegacyCheckDiagnostic, OpContext, Clock, Logger, ProviderInstance, OperationRecord, ResumeResult, ProviderOperation } from "./provider/provider.js";
export type { DebugLog } from "./provider/trace.js";
export type { DeclarationSite } from "./core/declaration-site.js";
export type { ResourceSchema, AttributeSchema, AttributeType, WaitDefaults } from "./provider/schema.js";
export { fitName, type AutoNameRule } from "./provider/auto-name.js";
export { IncompleteCreateError, TransientError, isTransientError, registerErrorKinds, type ErrorKinds } from "./core/errors.js";
export { UserError, DiagnosticsError, Diagnostics, isUserError, diagnosticsOf, type Diagnostic, type Severity, type SiteText } from "./core/diagnostic.js";
export { wait, DEFAULT_WAIT_TIMEOUT, DEFAULT_WAIT_INTERVAL, type WaitHandle, type WaitOptions, type AttributesOf } from "./wait/wait.js";
export { and, or, not, buildPredicate, evaluate, formatPredicate, type Predicate, type Attr, type Attrs, type PathSeg } from "./core/predicate.js";
export { describeWaitOutcome, WAIT_OUTCOME_KINDS, type WaitOutcome, type WaitOutcomeKind, type Observation } from "./wait/outcome.js";
export { Stack, type StackOptions, type RunOptions, type CallSignals, type UpResult, type RefreshChange, type Confirm, type DataLossOptions } from "./stack/stack.js";
export type { RoundInfo } from "./stack/options.js";
export type { ProviderOverrides } from "./program/registry.js";
export { CairnError } from "./stack/errors.js";
export { DataLossError } from "./stack/data-loss.js";
export { hasChanges, countSteps, isChanging, isPartial, waitsReadyNow, type DeferredPart, type Plan, type PlanStep, type StepKind, type PlanDiagnostic, type ReplaceReason, type DataLoss } from "./plan/plan.js";
export { planPermissions, type PlanPermissions, type PolicyDocument, type PermissionOptions, type PermissionsOf } from "./plan/permissions.js";
export type { CreateStep, UpdateStep, ReplaceStep, DeleteStep, ReadStep, WaitStep, SameStep } from "./plan/steps/index.js";
export type { ChangeStepFields, PlanMode } from "./plan/steps/step-parts.js";
export type { EngineEvent, EventDiagnostic, ApplySummary } from "./apply/events.js";
export type { ActionKind } from "./plan/actions.js";
export type { ResourceState, StackState, PendingOperation, OperationKind, DeclaredIn } from "./state/types.js";
export { MemoryBackend, type MemoryBackendOptions } from "./state/memory-backend.js";
export { openBackend, type OpenBackendOptions } from "./state/open-backend.js";
export type { StateBackend, HistoryEntry, RollbackResult, RemoveStackOptions } from "./state/backend.js";
export type { StatePlace, StateReader, StateWriter, OutputReader, StateLocker, StateHistory, StateConfig, StackCatalog, StackTransfer } from "./state/backend.js";
export type { LockHolder } from "./state/lock-holder.js";
export type { StackSummary, StoredOutputs } from "./state/backend.js";
export type { StateEdit, ForgetPlan, RenamePlan, Move, ImportPlan, UnprotectPlan } from "./stack/state-edit.js";
export type { StackRemoval, RestoredStack } from "./stack/stack-backup.js";
export type { MigrateResult } from "./state/migrate.js";
export type { RecoveryPlan, RecoveryResult, RecoveredResource } from "./state/recover.js";
export type { DriftFinding, AdoptedObject } from "./plan/plan.js";
export type { PlanOptions } from "./plan/context.js";
export { readPlanFile, writePlanFile } from "./plan/saved-plan.js";
export { stackOutputs, type StackOutputs, type StackOutputsOptions } from "./program/stack-outputs.js";
export type { StackGraph, StackRead } from "./stack/readers.js";
export type { StackName } from "./state/read-outputs.js";
export { runStacks, stackOrder, type RunStacksOptions, type StackCommand, type StackOutcome } from "./stack/run-stacks.js";
export type { StackAccess, OtherStack, PlannedOutputs } from "./state/stack-access.js";
