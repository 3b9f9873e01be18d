export type { Storage } from './types.js';
export { LocalStorage, StoragePathError } from './local.js';
