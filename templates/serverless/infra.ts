// A small serverless app on every-AWS-type Cairn: a bucket for uploads, a queue for jobs, and a function
// (with its role) that reads the bucket and is fed by the queue. Each service is its own module, imported as
// a namespace (so lambda.Function never meets JavaScript's global Function). The function's code is the
// folder ./worker, zipped and uploaded to an assets bucket.
import { program } from "cairn-iac";
import { assets } from "cairn-iac/aws";
import * as iam from "cairn-iac/aws/iam";
import * as lambda from "cairn-iac/aws/lambda";
import * as s3 from "cairn-iac/aws/s3";
import * as sqs from "cairn-iac/aws/sqs";

export default program("{{name}}", ({ config, stack }) => {
  const uploads = new s3.Bucket("uploads", { bucketName: `${config.get("prefix") ?? "{{name}}"}-${stack}-uploads`, versioningConfiguration: { status: "Enabled" } });
  const jobs = new sqs.Queue("jobs", { visibilityTimeout: 60 });
  const assetBucket = new s3.Bucket("assets", {});
  const workerCode = assets.folder("worker-code", "./worker", { bucket: assetBucket.bucketName });
  const role = new iam.Role("worker-role", {
    assumeRolePolicyDocument: {
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
    },
    managedPolicyArns: ["arn:aws:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole"],
    policies: [
      {
        policyName: "read-uploads",
        policyDocument: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: uploads.arn.apply((a) => `${a}/*`) }] },
      },
    ],
  });
  const worker = new lambda.Function("worker", {
    role: role.arn,
    runtime: "nodejs22.x",
    handler: "index.handler",
    timeout: 30,
    code: workerCode.code,
    environment: { variables: { UPLOADS: uploads.bucketName } },
  });
  new lambda.EventSourceMapping("jobs-to-worker", { eventSourceArn: jobs.arn, functionName: worker.arn, batchSize: 10 });
  return { uploads: uploads.bucketName, queueUrl: jobs.queueUrl, worker: worker.arn };
});
