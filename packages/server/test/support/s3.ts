import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import FilesystemStore from 's3rver/lib/stores/filesystem.js';
import { s3Client, type S3Settings } from '../../src/storage/s3.js';

export interface LocalS3 {
  endpoint: string;
  /** Settings for a fresh bucket of this server (created by `bucket`). */
  bucket(name?: string): Promise<S3Settings>;
  close(): Promise<void>;
}

let counter = 0;

type Listing = { objects: { key: string }[]; commonPrefixes: string[]; isTruncated: boolean };
type ListOptions = { delimiter?: string; prefix?: string; maxKeys?: number; startAfter?: string };

/**
 * s3rver 3.7 skips the folders below a common prefix while it walks its files, so a prefix that
 * holds only deeper keys (`a/` for `a/b/c.txt`) is missing from a delimited listing, which S3
 * and MinIO do report. Delimited listings are computed here from the full one instead.
 */
const store = FilesystemStore.prototype as { listObjects(this: unknown, bucket: string, options: ListOptions): Promise<Listing> };
const listAll = store.listObjects;
store.listObjects = async function (bucket, options) {
  if (!options.delimiter) return listAll.call(this, bucket, options);
  const { delimiter, prefix = '' } = options;
  const all = await listAll.call(this, bucket, { ...options, delimiter: undefined, maxKeys: Infinity });
  const commonPrefixes = new Set<string>();
  const objects = all.objects.filter((object) => {
    const idx = object.key.slice(prefix.length).indexOf(delimiter);
    if (idx === -1) return true;
    commonPrefixes.add(object.key.slice(0, prefix.length + idx + 1));
    return false;
  });
  return { objects, commonPrefixes: [...commonPrefixes].sort(), isTruncated: false };
};

/** An S3-compatible server (s3rver, files in a throwaway folder) on a free loopback port. */
export async function startLocalS3(): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'bt-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const address = (await server.run()) as { address: string; port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    async bucket(name = `bt-test-${process.pid}-${++counter}`) {
      const settings: S3Settings = {
        bucket: name,
        endpoint,
        region: 'us-east-1',
        // s3rver's fixed pair (it checks signatures).
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        forcePathStyle: true,
        prefix: '',
      };
      const client = s3Client(settings);
      await client.send(new CreateBucketCommand({ Bucket: name }));
      client.destroy();
      return settings;
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
