export type { Storage, StorageEntry } from './types.js';
export { LocalStorage, STAGING_DIR, StoragePathError, relativeSegments } from './local.js';
