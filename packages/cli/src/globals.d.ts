/** Set by the build (scripts/build.mjs) from package.json. */
declare const __BT_VERSION__: string | undefined;
