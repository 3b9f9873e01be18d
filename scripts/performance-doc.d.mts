export declare const PERFORMANCE_DOC: string;
/** Replaces (or appends) section NAME of the performance document; returns the file's path. */
export declare function writeSection(name: string, body: string, path?: string): string;
