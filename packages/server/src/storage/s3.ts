import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { StoragePathError, STAGING_DIR, relativeSegments } from './local.js';
import type { StagedFile, Storage, StorageEntry } from './types.js';

/** How to reach an S3-compatible bucket (docs/deployment.md, "Object storage"). */
export interface S3Settings {
  bucket: string;
  /** Another endpoint than AWS's (MinIO, Ceph, R2, s3rver...); null: AWS from the region. */
  endpoint: string | null;
  region: string;
  /** null: the SDK's own chain (environment, instance role...). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** `http://endpoint/bucket/key` rather than `http://bucket.endpoint/key` (most self-hosted servers). */
  forcePathStyle: boolean;
  /** Prepended to every key, so several deployments (or the files and the library) share a bucket. */
  prefix: string;
}

export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint ?? undefined,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials ?? undefined,
    // Checksums only where the protocol requires them: servers other than AWS (older MinIO,
    // Ceph, s3rver) refuse the newer trailing-checksum uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
}

/** A missing object as the same error the local disk gives, so callers keep one `ENOENT` test. */
function notFound(path: string): NodeJS.ErrnoException {
  const err = new Error(`ENOENT: no such object, '${path}'`) as NodeJS.ErrnoException;
  err.code = 'ENOENT';
  return err;
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * The storage interface on an S3-compatible bucket, for several API servers sharing their files.
 * Directories are key prefixes ending in '/'. Paths go through the same checks as the local disk
 * (relativeSegments), and there are no links, so nothing can lead out of the prefix.
 *
 * Atomicity comes from the protocol: a PUT makes the whole object visible at once or not at all,
 * and a reader sees the old object or the new one; an interrupted upload leaves nothing behind,
 * so there is no staging area to clear.
 */
export class S3Storage implements Storage {
  private readonly prefix: string;

  constructor(private readonly client: S3Client, private readonly bucket: string, prefix = '') {
    const segments = relativeSegments(prefix);
    this.prefix = segments.length ? segments.join('/') + '/' : '';
  }

  /** Checks the bucket answers (readiness). */
  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  private key(relativePath: string): string {
    return this.prefix + relativeSegments(relativePath).join('/');
  }

  /** The prefix under which a directory's entries live ('' for the root of an empty prefix). */
  private dirPrefix(relativePath: string): string {
    const segments = relativeSegments(relativePath);
    return this.prefix + (segments.length ? segments.join('/') + '/' : '');
  }

  async resolve(relativePath: string): Promise<string> {
    return `s3://${this.bucket}/${this.key(relativePath)}`;
  }

  async write(relativePath: string, data: Uint8Array | string): Promise<void> {
    const segments = relativeSegments(relativePath);
    if (segments.length === 0) throw new StoragePathError(relativePath, 'the storage root itself');
    const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    // Content-MD5: a server receiving other bytes than these (a cut connection) refuses the PUT.
    const md5 = createHash('md5').update(body).digest('base64');
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(relativePath), Body: body, ContentLength: body.byteLength, ContentMD5: md5 }));
  }

  /**
   * Kept in memory until published: a PUT already makes an object visible whole or not at all, so
   * a staging object would only add a copy (as long as the PUT) and objects to clear.
   */
  async stage(data: Uint8Array | string): Promise<StagedFile> {
    const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    return new S3Staged(this, body);
  }

  async publish(staged: StagedFile, relativePath: string): Promise<void> {
    if (!(staged instanceof S3Staged) || staged.storage !== this) throw new Error('a staged file of another storage');
    if (!staged.body) throw new Error('a staged file already published or discarded');
    await this.write(relativePath, staged.body);
    staged.body = null;
  }

  async discard(staged: StagedFile): Promise<void> {
    if (staged instanceof S3Staged && staged.storage === this) staged.body = null;
  }

  async read(relativePath: string): Promise<Uint8Array> {
    const body = await this.get(relativePath);
    return body.transformToByteArray();
  }

  async readStream(relativePath: string): Promise<{ stream: Readable; bytes: number | null }> {
    // The GET is answered before the stream is handed out: a missing object fails here. Its
    // length is the answer's own (an object replaced meanwhile is another GET).
    const { body, bytes } = await this.getSized(relativePath);
    // In Node the SDK's body is already a Readable; elsewhere (Deno) it is wrapped.
    if (body instanceof Readable) return { stream: body, bytes };
    return { stream: Readable.fromWeb((body as { transformToWebStream(): ReadableStream }).transformToWebStream() as never), bytes };
  }

  private async get(relativePath: string) {
    return (await this.getSized(relativePath)).body;
  }

  private async getSized(relativePath: string) {
    const key = this.key(relativePath);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) throw notFound(relativePath);
      const body = out.Body as Readable & { transformToByteArray(): Promise<Uint8Array>; transformToWebStream(): ReadableStream };
      return { body, bytes: out.ContentLength ?? null };
    } catch (err) {
      if (isMissing(err)) throw notFound(relativePath);
      throw err;
    }
  }

  async exists(relativePath: string): Promise<boolean> {
    return (await this.stat(relativePath)) !== null;
  }

  /** Removes an object, or a whole directory (every key under its prefix); never the root. */
  async remove(relativePath: string): Promise<void> {
    const segments = relativeSegments(relativePath);
    if (segments.length === 0) throw new StoragePathError(relativePath, 'the storage root itself');
    const keys = [this.key(relativePath)];
    for await (const page of this.pages(this.dirPrefix(relativePath), false)) {
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    }
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const out = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      // A batch delete answers 200 with per-key errors: a key left behind is a failed removal.
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) throw new Error(`could not remove ${failed.length} object(s) under ${JSON.stringify(relativePath)}: ${failed[0].Code} ${failed[0].Message ?? ''}`.trim());
    }
  }

  async list(relativePath: string): Promise<string[]> {
    return (await this.entries(relativePath, false)).map((e) => e.name);
  }

  async stat(relativePath: string): Promise<StorageEntry | null> {
    const segments = relativeSegments(relativePath);
    if (segments.length === 0) return { name: '', type: 'dir', bytes: 0, mtime: new Date(0) };
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(relativePath) }));
      return { name: segments[segments.length - 1], type: 'file', bytes: Number(head.ContentLength ?? 0), mtime: head.LastModified ?? new Date(0) };
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    const first = await this.firstUnder(this.dirPrefix(relativePath));
    return first ? { name: segments[segments.length - 1], type: 'dir', bytes: 0, mtime: first } : null;
  }

  async entries(relativePath: string, withDirTimes = true): Promise<StorageEntry[]> {
    const prefix = this.dirPrefix(relativePath);
    const atRoot = relativeSegments(relativePath).length === 0;
    const files = new Map<string, StorageEntry>();
    const dirs = new Set<string>();
    for await (const page of this.pages(prefix, true)) {
      for (const object of page.Contents ?? []) {
        const name = object.Key!.slice(prefix.length);
        if (name) files.set(name, { name, type: 'file', bytes: Number(object.Size ?? 0), mtime: object.LastModified ?? new Date(0) });
      }
      for (const common of page.CommonPrefixes ?? []) dirs.add(common.Prefix!.slice(prefix.length, -1));
    }
    if (atRoot) dirs.delete(STAGING_DIR);
    const dirEntries = await Promise.all(
      [...dirs].filter((name) => name && !files.has(name)).map(async (name): Promise<StorageEntry> => ({
        name,
        type: 'dir',
        bytes: 0,
        // A prefix has no time of its own: the time of its first object stands for it.
        mtime: withDirTimes ? (await this.firstUnder(prefix + name + '/')) ?? new Date(0) : new Date(0),
      })),
    );
    return [...files.values(), ...dirEntries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Nothing to clear: an interrupted PUT leaves no object (see the class comment). */
  async clearStaging(): Promise<number> {
    return 0;
  }

  private async firstUnder(prefix: string): Promise<Date | null> {
    const out = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: 1 }));
    const object = out.Contents?.[0];
    return object ? object.LastModified ?? new Date(0) : null;
  }

  private async *pages(prefix: string, delimited: boolean): AsyncGenerator<ListObjectsV2CommandOutput> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: delimited ? '/' : undefined, ContinuationToken: token }),
      );
      yield page;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

/** Staged bytes, held until their PUT (or dropped). */
class S3Staged implements StagedFile {
  readonly bytes: number;
  constructor(
    readonly storage: S3Storage,
    public body: Uint8Array | null,
  ) {
    this.bytes = body?.byteLength ?? 0;
  }
}
