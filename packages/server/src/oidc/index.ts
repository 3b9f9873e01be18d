export * from './provider.js';
export * from './linking.js';
export * from './flow.js';
export * from './codes.js';
export * from './reauth.js';
