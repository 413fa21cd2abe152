import type { DeposedObject, Props, ResourceState, StackState, StateMutation } from "./types.js";
import { MissingPassphraseError, type Crypter } from "./secrets.js";
import { visitResourceSecrets, visitSecretProps } from "./secret-walk.js";
import { copyOfResources } from "./mutations.js";

/**
 * How a secret value is written in files: this object in place of the value.
 *
 * @example
 * { "inputs": { "password": { "$secret": "q8Vb...==" } }, "secretKeys": ["password"] }
 */
export interface SecretEnvelope {
  $secret: string;
}

/** True when `v` is a `{ "$secret": "..." }` envelope. @example isSecretEnvelope({ $secret: "x" }) // true */
export function isSecretEnvelope(v: unknown): v is SecretEnvelope {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return typeof o.$secret === "string" && Object.keys(o).length === 1;
}

// Only the attributes named secret are touched: a plain value that happens to look like an envelope stays plain.
function mapSecrets(props: Props, keys: readonly string[], f: (v: unknown) => unknown): Props {
  let out: Props | undefined;
  visitSecretProps(props, keys, (v, k) => {
    (out ??= { ...props })[k] = f(v);
  });
  return out ?? props;
}

function encrypter(crypter: Crypter | undefined): (v: unknown) => SecretEnvelope {
  return (v) => {
    if (!crypter) throw new MissingPassphraseError("write");
    return { $secret: crypter.encrypt(v) };
  };
}

function decrypter(crypter: Crypter | undefined): (v: unknown) => unknown {
  return (v) => {
    // A secret stored in plain text (hand-edited state, or marked secret later) is read as it is.
    if (!isSecretEnvelope(v)) return v;
    if (!crypter) throw new MissingPassphraseError("read");
    return crypter.decrypt(v.$secret);
  };
}

function mapDeposed(d: DeposedObject, f: (v: unknown) => unknown): DeposedObject {
  const keys = d.secretKeys;
  if (!keys?.length) return d;
  return { ...d, inputs: mapSecrets(d.inputs, keys, f), outputs: mapSecrets(d.outputs, keys, f) };
}

function mapResource(r: ResourceState, f: (v: unknown) => unknown): ResourceState {
  const keys = r.secretKeys;
  const hasDeposedSecrets = r.deposed?.some((d) => d.secretKeys?.length) ?? false;
  // Most resources have no secrets: hand them back untouched so encoding 10,000 of them costs nothing.
  if (!keys?.length && !hasDeposedSecrets) return r;
  const out: ResourceState = { ...r };
  if (keys?.length) {
    out.inputs = mapSecrets(r.inputs, keys, f);
    out.outputs = mapSecrets(r.outputs, keys, f);
  }
  if (hasDeposedSecrets) out.deposed = r.deposed!.map((d) => mapDeposed(d, f));
  return out;
}

/**
 * Encrypts the secret attributes (named by `secretKeys`, in both inputs and outputs, and in each
 * deposed object by its own `secretKeys`) of a resource for writing. Throws
 * {@link MissingPassphraseError} if there is a secret and no crypter.
 *
 * @example
 * encodeResource({ ...r, inputs: { pw: "x" }, secretKeys: ["pw"] }, crypter).inputs.pw // { $secret: "..." }
 */
export function encodeResource(r: ResourceState, crypter?: Crypter): ResourceState {
  return mapResource(r, encrypter(crypter));
}

/**
 * Decrypts what {@link encodeResource} encrypted.
 * @example decodeResource(encodeResource(r, c), c) // deep-equals r
 */
export function decodeResource(r: ResourceState, crypter?: Crypter): ResourceState {
  return mapResource(r, decrypter(crypter));
}

/**
 * Encrypts every secret of a stack state: resources' secret attributes and the stack outputs named in
 * `secretOutputs`. The input is not modified.
 *
 * @example
 * const onDisk = JSON.stringify(encodeState(state, crypter));
 */
export function encodeState(state: StackState, crypter?: Crypter): StackState {
  return mapState(state, encrypter(crypter));
}

/**
 * Decrypts what {@link encodeState} encrypted.
 * @example decodeState(JSON.parse(text), crypter)
 */
export function decodeState(state: StackState, crypter?: Crypter): StackState {
  return mapState(state, decrypter(crypter));
}

function mapState(state: StackState, f: (v: unknown) => unknown): StackState {
  // Copied only if a resource has secrets: most states have none, and copying 100,000 entries is not free.
  let resources: Record<string, ResourceState> | undefined;
  for (const urn in state.resources) {
    const r = state.resources[urn]!;
    const mapped = mapResource(r, f);
    if (mapped !== r) (resources ??= copyOfResources(state.resources))[urn] = mapped;
  }
  const outputs = state.secretOutputs?.length ? mapSecrets(state.outputs, state.secretOutputs, f) : state.outputs;
  return { ...state, resources: resources ?? state.resources, outputs };
}

function mapMutation(m: StateMutation, f: (v: unknown) => unknown): StateMutation {
  switch (m.kind) {
    case "upsert":
      return { kind: "upsert", resource: mapResource(m.resource, f) };
    case "outputs":
      return { kind: "outputs", outputs: mapSecrets(m.outputs, m.secretOutputs, f), secretOutputs: m.secretOutputs };
    case "remove":
      return m;
  }
}

/**
 * Encrypts the secrets a journaled mutation carries.
 * @example encodeMutation({ kind: "upsert", resource }, crypter)
 */
export function encodeMutation(m: StateMutation, crypter?: Crypter): StateMutation {
  return mapMutation(m, encrypter(crypter));
}

/**
 * Decrypts what {@link encodeMutation} encrypted.
 * @example decodeMutation(record.m[0], crypter)
 */
export function decodeMutation(m: StateMutation, crypter?: Crypter): StateMutation {
  return mapMutation(m, decrypter(crypter));
}

/**
 * True if writing this resource would need a passphrase (it has a secret attribute with a value).
 * @example resourceHasSecrets({ ...r, secretKeys: ["pw"], inputs: { pw: "x" } }) // true
 */
export function resourceHasSecrets(r: ResourceState): boolean {
  return visitResourceSecrets(r, () => true);
}
