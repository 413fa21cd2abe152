/**
 * The name in `names` closest to a misspelt `name` (case, a typo or two), for "did you mean"; undefined
 * when none is close enough to be a likely intent.
 *
 * @example closestName("vpcID", ["vpcId", "subnetIds"]) // "vpcId"
 */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const n of names) {
    const d = n.toLowerCase() === name.toLowerCase() ? 0 : distance(name, n);
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  // Up to a third of the name may differ: further than that, a guess misleads more than it helps.
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

/** Edit distance (insertions, deletions, substitutions), in one row of memory. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The first key of `given` that is not in `known`, with what to say about it: the name meant (`Did you
 * mean "dependsOn"?`) or, when none is close, every name `known` holds. For options objects: a misspelt key
 * is otherwise ignored in silence.
 *
 * @example unknownKey({ dependOn: [] }, new Set(["dependsOn", "parent"])) // { key: "dependOn", hint: 'Did you mean "dependsOn"?' }
 */
export function unknownKey(given: object, known: ReadonlySet<string>): { key: string; hint: string } | undefined {
  for (const key in given) {
    if (known.has(key)) continue;
    const meant = closestName(key, known);
    return { key, hint: meant ? `Did you mean "${meant}"?` : `The options are ${[...known].join(", ")}.` };
  }
  return undefined;
}
