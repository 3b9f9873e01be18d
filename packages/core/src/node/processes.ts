import { createHash } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Whether process `pid` of this host has ended: only ESRCH says so. A process of another user is
 * alive (EPERM), and any other answer is taken as alive, so that a file or a lease of a running
 * writer is never taken from it.
 */
export function processEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** This host's name hashed to `length` hex digits, for names that tell the hosts sharing a folder apart. */
export function hostTag(length: number): string {
  return createHash('sha256').update(hostname()).digest('hex').slice(0, length);
}
