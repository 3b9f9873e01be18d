/** The CLI's version (package.json, inlined by the build; tests that run sources see a dev marker). */
export const CLI_VERSION: string = typeof __BT_VERSION__ === 'string' ? __BT_VERSION__ : '0.0.0-dev';

/** Version of every `--json` document's shape (docs/cli.md); bumped only by an incompatible change. */
export const JSON_SCHEMA_VERSION = 1;
