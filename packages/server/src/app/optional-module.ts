/**
 * A dependency that only one feature needs (pdfkit for invoices, nodemailer for SMTP, bullmq and
 * ioredis for Redis, the S3 SDK, openid-client, Stripe's SDK) is imported when that feature is
 * configured or first used: loading them all cost every server start, worker start and test file
 * about a second of CPU (docs/development.md, "The test command").
 *
 * A failed import names the feature and the module. At start the process stops with that
 * message; in a request the error middleware answers 503 with a French `detail` and logs it.
 */
export class OptionalModuleError extends Error {
  constructor(
    readonly feature: string,
    readonly module: string,
    cause: unknown,
  ) {
    super(`${feature} needs ${module}, which could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'OptionalModuleError';
  }
}

/** `load` is `() => import('name')`, written out so that tsc, tsx and Deno all see the specifier. */
export async function importFor<T>(feature: string, module: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw new OptionalModuleError(feature, module, err);
  }
}
