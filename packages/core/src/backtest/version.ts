/**
 * Version of the engine's semantics. Bump it with any change that moves a trade (the golden
 * results change with it, deliberately); it is written in every workbook's Config sheet.
 */
export const ENGINE_VERSION = '1.1.0';
