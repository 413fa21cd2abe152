/**
 * The page's script (inline, no requests): the search box filters the steps, a click on a graph node opens
 * and shows its step, and printing opens every step first.
 *
 * @example `<script>${pageScript()}</script>`
 */
export function pageScript(): string {
  return `
(() => {
  const steps = [...document.querySelectorAll(".step")];
  const search = document.getElementById("search");
  if (search) search.addEventListener("input", () => {
    const q = search.value.toLowerCase();
    for (const s of steps) s.hidden = q !== "" && !s.textContent.toLowerCase().includes(q);
  });
  for (const node of document.querySelectorAll(".picture .node")) {
    node.addEventListener("click", () => {
      const urn = node.querySelector("title")?.textContent;
      const step = steps.find((s) => s.dataset.urn === urn);
      if (!step) return;
      for (const s of steps) s.classList.remove("hit");
      step.open = true;
      step.classList.add("hit");
      step.scrollIntoView({ block: "center" });
    });
  }
  window.addEventListener("beforeprint", () => { for (const s of steps) s.open = true; });
})();
`;
}
