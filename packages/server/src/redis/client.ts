import type { Redis } from 'ioredis';
import { importFor } from '../app/optional-module.js';

/**
 * The API server's Redis connection (rate limits, readiness). Commands fail fast while Redis is
 * away (no offline queue, one retry, a short timeout), so a request never waits on a dead Redis;
 * the connection itself keeps trying in the background and comes back on its own. ioredis is
 * loaded only when REDIS_URL is set (app/optional-module.ts).
 */
export async function openRedis(url: string, log: (message: string) => void): Promise<Redis> {
  const { Redis } = await importFor('Redis (REDIS_URL)', 'ioredis', () => import('ioredis'));
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  let lastError = '';
  redis.on('error', (err: Error) => {
    // One line per distinct error, not one per reconnection attempt.
    if (err.message !== lastError) log(`redis: ${err.message}`);
    lastError = err.message;
  });
  redis.on('ready', () => {
    if (lastError) log('redis: connected again');
    lastError = '';
  });
  return redis;
}

/** Where a Redis URL points, without its password (for the startup line). */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || 6379}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
  } catch {
    return '(invalid REDIS_URL)';
  }
}
