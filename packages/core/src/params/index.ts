export { normalizeParams, paramSignature, type NormalizeParamsOptions, type NormalizedParams } from './normalize.js';
export { PARAM_ALIASES, canonicalParamName } from './aliases.js';
export { PARAM_TEXT_MAX, coerceBool, coerceFloat, coerceInt, coerceParam, coerceString, isEmptyValue } from './coerce.js';
export {
  OVERLAP_PERCENT_MAX, OVERLAP_PERCENT_MIN, OVERLAP_PERCENT_PRESETS,
  overlapFractionToPercent, overlapPercentToFraction, parseOverlapRatio,
} from './overlap.js';
export { checkParamRelations, paramRelationWarnings } from './relations.js';
export { paramWarningText, unknownParamText, type ParamWarning } from './warnings.js';
export { parseParamAssignments } from './assignments.js';
export { parseNumberText } from './numbers.js';
export { ParamError, showValue } from './errors.js';
export { describeJsonTextError, jsonTextError, type JsonTextError, type JsonTextReason } from './json-text.js';
