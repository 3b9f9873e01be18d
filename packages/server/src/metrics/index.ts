export { Metrics } from './metrics.js';
export { metricsEndpoint } from './route.js';
