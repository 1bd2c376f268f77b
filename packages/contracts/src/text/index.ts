export { NUMBER_BOUNDS, measuredValue, meterQuantity, nonNegativeUsd, usdAmount } from './amounts';
export { JSON_LIMITS, jsonShapeIssues } from './json-shape';
export { MAX_ID_CHARS, isStorableText, senderText, storableText, storedId, storedText } from './stored-text';
