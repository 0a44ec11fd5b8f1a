import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

/** Settings of an `s3` check: a bucket on S3 or S3-compatible storage. */
export interface S3CheckSettings {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
}

/** Checks that the bucket exists and is reachable (HeadBucket). */
export async function s3Check(settings: S3CheckSettings, signal: AbortSignal): Promise<Record<string, unknown>> {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region ?? 'us-east-1',
    forcePathStyle: settings.forcePathStyle ?? settings.endpoint !== undefined,
    credentials: settings.accessKeyId
      ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey ?? '' }
      : undefined,
    maxAttempts: 1,
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }), { abortSignal: signal });
    return { bucket: settings.bucket };
  } catch (error) {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number }; message?: string };
    throw new Error(
      `bucket ${settings.bucket}: ` +
        `${e.name ?? 'error'}${e.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : ''}`,
      { cause: error },
    );
  } finally {
    client.destroy();
  }
}
