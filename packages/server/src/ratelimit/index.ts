export * from './limiter.js';
export * from './middleware.js';
