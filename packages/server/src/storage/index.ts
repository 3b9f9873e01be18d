export type { StagedFile, Storage, StorageEntry } from './types.js';
export { LocalStorage, STAGING_DIR, StoragePathError, relativeSegments } from './local.js';
// Type only: the S3 SDK is loaded by openStorages when S3_BUCKET is set (import S3Storage from ./s3.js).
export type { S3Settings } from './s3.js';
export { openStorages, readS3Env, type Storages } from './config.js';
