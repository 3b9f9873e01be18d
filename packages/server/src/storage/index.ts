export type { Storage } from './types.js';
export { LocalStorage, StoragePathError, relativeSegments } from './local.js';
