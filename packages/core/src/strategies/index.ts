export { filterMasks, type FilterColumns, type FilterMasks } from './filters.js';
