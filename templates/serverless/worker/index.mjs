// The worker's code: infra.ts zips this folder and uploads it (assets.folder). A changed file gives a new
// archive hash, so the next `up` updates the function. `.mjs`: Lambda's Node.js runtimes load it as a module.
export const handler = async (event) => ({ received: event.Records.length });
