// The worker's code: this folder is zipped and uploaded by `assets.folder` in infra.ts. A changed file
// gives a new archive hash, so the next `up` updates the function.
exports.handler = async (event) => ({ received: event.Records.length });
