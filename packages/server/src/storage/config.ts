import { join } from 'node:path';
import { importFor } from '../app/optional-module.js';
import { LocalStorage } from './local.js';
import type { S3Settings } from './s3.js';
import type { Storage } from './types.js';

type Env = Record<string, string | undefined>;

/**
 * The object storage from the environment (docs/deployment.md, "Object storage"), or null when
 * S3_BUCKET is not set: the local disk under DATA_DIR, the default.
 */
export function readS3Env(env: Env): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return null;
  const endpoint = env.S3_ENDPOINT?.trim() || null;
  if (endpoint) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(endpoint);
    } catch {
      parsed = null;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new Error(`invalid S3_ENDPOINT: ${endpoint} (expected an http(s) URL)`);
  }
  const id = env.S3_ACCESS_KEY_ID?.trim() || '';
  const secret = env.S3_SECRET_ACCESS_KEY?.trim() || '';
  if (!!id !== !!secret) throw new Error('invalid S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither');
  const style = env.S3_FORCE_PATH_STYLE?.trim().toLowerCase();
  if (style && !['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'].includes(style)) throw new Error(`invalid S3_FORCE_PATH_STYLE: ${style} (expected true or false)`);
  const prefix = (env.S3_PREFIX ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (prefix && (!/^[A-Za-z0-9._\-/]+$/.test(prefix) || prefix.split('/').some((s) => s === '..' || s === '.' || s === ''))) throw new Error(`invalid S3_PREFIX: ${prefix} (letters, digits, '.', '_', '-' and '/')`);
  return {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || 'us-east-1',
    credentials: id ? { accessKeyId: id, secretAccessKey: secret } : null,
    // A custom endpoint is almost always a self-hosted server, which wants path-style URLs.
    forcePathStyle: style ? ['1', 'true', 'yes', 'on'].includes(style) : !!endpoint,
    prefix,
  };
}

export interface Storages {
  /** Results, extractions, strategies, the archive, invoices. */
  storage: Storage;
  /** The official CSV library. */
  library: Storage;
  /** Where the files live, for the startup line. */
  description: string;
  /** Readiness: resolves when the backend answers. */
  ping(): Promise<void>;
}

/**
 * Both storages of a server: two prefixes of one bucket, or two folders of DATA_DIR. The S3 SDK
 * is loaded only for a bucket (app/optional-module.ts): a failed load stops the start.
 */
export async function openStorages(dataDir: string, s3: S3Settings | null): Promise<Storages> {
  if (!s3) {
    const storage = new LocalStorage(join(dataDir, 'files'));
    const library = new LocalStorage(join(dataDir, 'library'));
    return {
      storage,
      library,
      description: `local disk (${join(dataDir, 'files')}, ${join(dataDir, 'library')})`,
      ping: async () => {
        await Promise.all([storage.ping(), library.ping()]);
      },
    };
  }
  const { S3Storage, s3Client } = await importFor('S3 storage (S3_BUCKET)', '@aws-sdk/client-s3', () => import('./s3.js'));
  const client = s3Client(s3);
  const base = s3.prefix ? s3.prefix + '/' : '';
  const storage = new S3Storage(client, s3.bucket, base + 'files');
  return {
    storage,
    library: new S3Storage(client, s3.bucket, base + 'library'),
    description: `S3 bucket ${s3.bucket}${s3.endpoint ? ` at ${s3.endpoint}` : ` (${s3.region})`}, prefix ${base || '(none)'}`,
    ping: () => storage.ping(),
  };
}
