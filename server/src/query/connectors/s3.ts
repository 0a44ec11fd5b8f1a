import { SourceUnavailableError } from '../../core/domain-errors.js';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Deadline } from '../deadline.js';
import type { SettingsReader } from '../settings-reader.js';
import { describeFiles, fileScan, groupFileTables, type FileTable } from './file-tables.js';
import {
  findTable,
  sourceFailure,
  type Connector,
  type ScanRequest,
  type ScanResult,
  type TableInfo,
} from './types.js';

export interface S3Settings {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Reads the settings of an `s3` source (any S3-compatible store). */
export function readS3Settings(reader: SettingsReader): S3Settings {
  const endpoint = reader.optionalString('endpoint');
  if (endpoint !== undefined && !/^https?:\/\//.test(endpoint))
    reader.fail('endpoint', '"endpoint" must be an http(s) URL');
  const accessKeyId = reader.optionalString('access_key_id');
  const secretAccessKey = reader.optionalString('secret_access_key');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    reader.fail(
      accessKeyId ? 'access_key_id' : 'secret_access_key',
      'give both access_key_id and secret_access_key, or neither',
    );
  const prefix = reader.string('prefix', '').replace(/^\/+/, '');
  return {
    bucket: reader.string('bucket'),
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    endpoint,
    region: reader.string('region', 'us-east-1'),
    accessKeyId,
    secretAccessKey,
    forcePathStyle: reader.boolean('force_path_style', endpoint !== undefined),
  };
}

/**
 * S3-compatible object storage through `@aws-sdk/client-s3`: objects under the prefix grouped into
 * tables as a local folder's files are. A scan downloads the table's objects into the query's private
 * folder and DuckDB reads them there; schemas come from the first object, cached by its ETag.
 */
export class S3Connector implements Connector {
  private readonly client: S3Client;
  private readonly schemaCache = new Map<string, TableInfo>();
  private readonly cacheDir: string;

  constructor(
    private readonly source: string,
    private readonly settings: S3Settings,
    tempRoot: string,
  ) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.accessKeyId
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey! }
        : undefined,
      maxAttempts: 2,
    });
    this.cacheDir = path.join(tempRoot, `s3-schemas-${source}`);
  }

  private fail(error: unknown, deadline: Deadline): never {
    if (deadline.expired || error instanceof SourceUnavailableError) throw sourceFailure(this.source, error, deadline);
    const e = error as Error & { name?: string };
    throw new SourceUnavailableError(
      this.source,
      `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message || String(error)}`,
    );
  }

  private async objects(deadline: Deadline): Promise<{ key: string; etag: string }[]> {
    const objects: { key: string; etag: string }[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.settings.bucket,
            Prefix: this.settings.prefix || undefined,
            ContinuationToken: token,
          }),
          { abortSignal: deadline.signal },
        );
        for (const o of page.Contents ?? [])
          if (o.Key && !o.Key.endsWith('/')) objects.push({ key: o.Key, etag: o.ETag ?? '' });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      this.fail(error, deadline);
    }
    return objects;
  }

  private async fileTables(deadline: Deadline): Promise<{ tables: FileTable[]; etags: Map<string, string> }> {
    const objects = await this.objects(deadline);
    const etags = new Map(objects.map((o) => [o.key.slice(this.settings.prefix.length), o.etag]));
    return { tables: groupFileTables([...etags.keys()]), etags };
  }

  private async download(relative: string, target: string, deadline: Deadline): Promise<void> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.settings.prefix + relative }),
        { abortSignal: deadline.signal },
      );
      fs.mkdirSync(path.dirname(target), { recursive: true });
      await pipeline(object.Body as Readable, fs.createWriteStream(target), { signal: deadline.signal });
    } catch (error) {
      this.fail(error, deadline);
    }
  }

  private async describe(table: FileTable, etags: Map<string, string>, deadline: Deadline): Promise<TableInfo> {
    const first = table.files[0];
    const cacheKey = `${table.name}\n${first}\n${etags.get(first)}`;
    const cached = this.schemaCache.get(cacheKey);
    if (cached) return cached;
    const local = path.join(this.cacheDir, `${table.name}${path.extname(first)}`);
    await this.download(first, local, deadline);
    try {
      const info = { name: table.name, columns: await describeFiles(table.format, [local]) };
      this.schemaCache.set(cacheKey, info);
      return info;
    } catch (error) {
      this.fail(new Error(`cannot read table ${table.name}: ${(error as Error).message}`), deadline);
    } finally {
      fs.rmSync(local, { force: true });
    }
  }

  async listTables(deadline: Deadline): Promise<TableInfo[]> {
    const { tables, etags } = await this.fileTables(deadline);
    return Promise.all(tables.map((t) => this.describe(t, etags, deadline)));
  }

  async describeTable(name: string, deadline: Deadline): Promise<TableInfo | undefined> {
    const { tables, etags } = await this.fileTables(deadline);
    const table = tables.find((t) => t.name === name.toLowerCase());
    return table ? findTable([await this.describe(table, etags, deadline)], name) : undefined;
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    const { tables } = await this.fileTables(request.deadline);
    const table = tables.find((t) => t.name === request.table.name);
    if (!table) throw new SourceUnavailableError(this.source, `table ${request.table.name} disappeared`);
    const folder = path.join(request.workDir, `s3-${this.source}-${table.name}`);
    const paths = table.files.map((f, i) => path.join(folder, `${i}${path.extname(f)}`));
    await Promise.all(table.files.map((f, i) => this.download(f, paths[i], request.deadline)));
    return fileScan(table.format, paths, request.columns, request.filters);
  }

  async check(deadline: Deadline): Promise<Record<string, unknown>> {
    const { tables } = await this.fileTables(deadline);
    return { bucket: this.settings.bucket, tables: tables.length };
  }

  async close(): Promise<void> {
    this.client.destroy();
    fs.rmSync(this.cacheDir, { recursive: true, force: true });
  }
}
