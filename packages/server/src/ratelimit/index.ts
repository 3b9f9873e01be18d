export * from './limiter.js';
export * from './middleware.js';
export * from './redis.js';
