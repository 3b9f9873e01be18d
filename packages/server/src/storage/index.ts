export type { Storage, StorageEntry } from './types.js';
export { LocalStorage, STAGING_DIR, StoragePathError, relativeSegments } from './local.js';
export { S3Storage, s3Client, type S3Settings } from './s3.js';
export { openStorages, readS3Env, type Storages } from './config.js';
