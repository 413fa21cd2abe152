import { nameOf, typeOf, type Urn } from "../../core/urn.js";
import type { GraphCluster } from "./model.js";

/**
 * A component's cluster, from its URN (components are not steps nor state records: their children name them).
 * @example clusterOf("urn:cairn:dev::app::acme:Site::www") // { urn, name: "www", type: "acme:Site" }
 */
export function clusterOf(urn: Urn): GraphCluster {
  return { urn, name: nameOf(urn), type: typeOf(urn) };
}
