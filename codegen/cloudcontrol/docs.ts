/** Doc comments and links for generated types: the specification's documentation, made safe for TSDoc. */

// Long descriptions are cut at a paragraph end near this length: the whole text is one click away.
const MAX_DOC = 1200;

/**
 * The specification's markdown as TSDoc text: cut at a paragraph end when long, with nothing that would end
 * the comment early or read as a tag.
 *
 * @example docText("Enables versioning.\n\n> Note") // "Enables versioning.\n\n> Note"
 */
export function docText(markdown: string | undefined): string {
  let text = (markdown ?? "").trim();
  if (text.length > MAX_DOC) {
    const cut = text.lastIndexOf("\n\n", MAX_DOC);
    text = `${text.slice(0, cut > 200 ? cut : MAX_DOC).trimEnd()} …`;
  }
  // `*/` would close the comment; a line starting with `@` would read as a TSDoc tag.
  return text.replaceAll("*/", "*\\/").replace(/(^|\n)(\s*)@/g, "$1$2\\@");
}

/**
 * The CloudFormation user guide page of a resource type, or of one of its property types.
 *
 * @example cfnDocUrl("AWS::S3::Bucket") // "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-s3-bucket.html"
 * @example cfnDocUrl("AWS::S3::Bucket", "VersioningConfiguration") // ".../aws-properties-s3-bucket-versioningconfiguration.html"
 */
export function cfnDocUrl(cfnType: string, propertyType?: string): string {
  const [vendor, service, name] = cfnType.toLowerCase().split("::");
  const base = "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide";
  const prefix = vendor === "aws" ? "" : `${vendor}-`;
  if (propertyType) return `${base}/aws-properties-${prefix}${service}-${name}-${propertyType.toLowerCase()}.html`;
  return `${base}/aws-resource-${prefix}${service}-${name}.html`;
}
