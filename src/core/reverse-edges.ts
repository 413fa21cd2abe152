/** How the nodes are named when an edge points at none (`job urn:…#create depends on job 7, …`). */
export interface NodeWords {
  kind: string;
  name: (i: number) => string;
}

const NODES: NodeWords = { kind: "node", name: String };

/**
 * The edges of a graph of indices turned round, in two flat arrays: node `i`'s users (the nodes whose
 * `deps` list `i`) are `users[at[i]]…users[at[i+1]-1]`, in ascending order. A list per node that has users
 * costs more memory, and the lists grow by copying.
 *
 * @example
 * const { at, users } = reverseEdges([[], [0], [0, 1]]);
 * users.subarray(at[0], at[1]) // Int32Array [1, 2]
 */
export function reverseEdges(deps: readonly (readonly number[] | undefined)[], what: NodeWords = NODES): { at: Int32Array; users: Int32Array } {
  const n = deps.length;
  const at = new Int32Array(n + 1);
  let edges = 0;
  for (let i = 0; i < n; i++) {
    const ds = deps[i];
    if (!ds) continue;
    edges += ds.length;
    for (const d of ds) {
      if (!(d >= 0 && d < n)) throw new RangeError(`${what.kind} ${what.name(i)} depends on ${what.kind} ${d}, which does not exist`);
      at[d + 1]!++;
    }
  }
  for (let i = 0; i < n; i++) at[i + 1]! += at[i]!;
  const users = new Int32Array(edges);
  const fill = at.slice(0, n);
  for (let i = 0; i < n; i++) for (const d of deps[i] ?? []) users[fill[d]!++] = i;
  return { at, users };
}
