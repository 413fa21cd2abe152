/**
 * Where a value refers back to itself, as a path (`input "config.self" refers back to "config"`), or
 * undefined when it has no cycle. Only plain objects and arrays are walked: state holds JSON, which cannot
 * be cyclic, so such an input is refused where it is declared rather than overflowing the stack later.
 *
 * @example const c: Record<string, unknown> = {}; c.self = c; findCycle(c, "config") // { at: "config.self", to: "config" }
 */
export function findCycle(v: unknown, path: string, onPath: Map<object, string> = new Map()): { at: string; to: string } | undefined {
  if (v === null || typeof v !== "object") return undefined;
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return undefined;
  const seen = onPath.get(v);
  if (seen !== undefined) return { at: path, to: seen };
  onPath.set(v, path);
  try {
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [`${path}[${i}]`, x]) : Object.entries(v).map(([k, x]) => [`${path}.${k}`, x]);
    for (const [p, x] of entries) {
      const found = findCycle(x, p, onPath);
      if (found) return found;
    }
    return undefined;
  } finally {
    onPath.delete(v);
  }
}
