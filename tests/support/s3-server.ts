import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Config } from "#app/lib/env.server.ts";

export type S3TestServer = { config: S3Config; endpoint: string; close(): Promise<void> };

/**
 * A real S3-protocol server (s3rver) on a free port of 127.0.0.1 with one empty bucket, so the S3
 * upload driver is tested through the AWS SDK's real requests — not a mock of the SDK.
 */
export async function startS3Server(bucket = "torepoke-test"): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), "torepoke-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    // s3rver's fixed development credentials.
    config: { bucket, endpoint, region: "us-east-1", credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }, publicUrl: `${endpoint}/${bucket}` },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
