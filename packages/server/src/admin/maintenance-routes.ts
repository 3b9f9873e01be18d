import type Router from '@koa/router';
import type { AppContext, AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { HttpError, badRequest, notFound } from '../app/errors.js';
import { bodyOf, text, type Body } from '../app/input.js';
import { discard, readForm } from '../app/multipart.js';
import type { Services } from '../app/services.js';
import { isEmail, normalizeEmail } from '../auth/rules.js';
import { fetchSource, allowList } from './import/source-url.js';
import type { OutputImporter } from './import/import-output.js';
import type { InvoiceFiles } from './invoice-files.js';
import { ADMIN_MSG } from './messages.js';
import { boolField, pageOf } from './query.js';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const MB = 1024 * 1024;
const queryOf = (ctx: AppContext) => ctx.query as Body;

/** The Maintenance tab (docs/admin.md, "Maintenance"). */
export function registerMaintenanceRoutes(router: Router<AppState>, services: Services, deps: AppDeps, importer: OutputImporter, invoices: InvoiceFiles): void {
  const { datasets, recreations } = services;
  const limits = deps.config.imports;
  const urlAllow = allowList(limits.urlAllow);

  router.post('/csv/reindex-output', async (ctx) => {
    const started = performance.now();
    const root = await datasets.library.resolve('');
    let logged = 0;
    const result = await importer.exclusive(() =>
      datasets.reindex({
        // Progress in the server log: every tenth of the files, and the last one.
        onProgress: (done, total) => {
          if (done === total || done - logged >= Math.max(1, Math.ceil(total / 10))) {
            logged = done;
            deps.log(`admin: reindex ${done}/${total} files`);
          }
        },
      }),
    );
    const ok = result.errors.length === 0;
    deps.log(`admin: reindex done: ${result.datasets} datasets of ${result.files} files${ok ? '' : `, ${result.errors.length} unreadable`}`);
    ctx.body = {
      status: ok ? 'success' : 'partial',
      ...(ok ? {} : { detail: ADMIN_MSG.reindexPartial }),
      result: { ok, datasets: result.datasets, files: result.files, root, errors: result.errors, elapsed_ms: Math.round(performance.now() - started) },
    };
  });

  router.get('/email-recreate', async (ctx) => {
    ctx.body = await recreations.list(pageOf(queryOf(ctx), 1000, 5000));
  });

  router.post('/reset-email-recreate', async (ctx) => {
    const raw = text(bodyOf(ctx), 'email');
    let email: string | null = null;
    if (raw) {
      email = normalizeEmail(raw);
      if (!isEmail(email)) throw badRequest(ADMIN_MSG.emailInvalid);
    }
    const { removed, left } = await recreations.reset(email);
    if (email && removed === 0) throw notFound(ADMIN_MSG.noRecreateCounter);
    ctx.body = { status: 'success', email, removed, left };
  });

  router.get('/factures_info', async (ctx) => {
    ctx.body = await invoices.info();
  });

  // A page at a time (decided in docs/admin.md "Billing files"): every purchase draws a PDF, and
  // the whole list grew with the sales, sent and drawn at once.
  router.get('/factures_list', async (ctx) => {
    const { limit, offset } = pageOf(queryOf(ctx), 500, 5000);
    const files = await invoices.list();
    ctx.body = { items: files.slice(offset, offset + limit), total: files.length, limit, offset };
  });

  const relOf = (ctx: AppContext) => {
    const rel = text(queryOf(ctx), 'rel', { trim: false }) || text(bodyOf(ctx), 'rel', { trim: false });
    if (!rel) throw badRequest(ADMIN_MSG.relMissing);
    return rel;
  };

  router.get('/factures_download', async (ctx) => {
    const file = await invoices.path(relOf(ctx));
    const { stream, bytes } = await deps.storage.readStream(file.path);
    ctx.attachment(file.name);
    if (bytes !== null) ctx.length = bytes;
    ctx.body = stream;
  });

  router.post('/factures_delete', async (ctx) => {
    const rel = relOf(ctx);
    await invoices.remove(rel);
    ctx.body = { status: 'success', detail: ADMIN_MSG.invoiceDeleted, rel };
  });

  router.post('/maintenance/import-output', async (ctx) => {
    const tooLarge = ADMIN_MSG.importTooLarge(Math.round(limits.maxArchiveBytes / MB));
    // The library is taken before the body is read: a busy answer is sent at once, without waiting
    // for the up to 100 MB sent, which are dropped as they arrive (never held) while it goes out.
    ctx.body = await importer.exclusive(
      async () => {
        const { fields, files } = await readForm(ctx, limits.maxArchiveBytes + MB, tooLarge, {
          ms: deps.config.uploads.bodyTimeoutMs,
          message: ADMIN_MSG.importBodyTimeout,
        });
        const now = deps.clock.now();
        const targetMonth = text(fields, 'target_month') || now.toISOString().slice(0, 7);
        if (!MONTH.test(targetMonth)) throw badRequest(ADMIN_MSG.monthInvalid(targetMonth));
        const mode = (text(fields, 'mode') || 'skip').toLowerCase();
        if (mode !== 'skip' && mode !== 'overwrite') throw badRequest(ADMIN_MSG.modeInvalid(mode));
        const dryRun = boolField(fields, 'dry_run', false, ADMIN_MSG.dryRunInvalid);
        const sourceUrl = text(fields, 'source_url');
        const file = files.file;
        if (file && sourceUrl) throw badRequest(ADMIN_MSG.zipAndUrl);
        if (!file && !sourceUrl) throw badRequest(ADMIN_MSG.provideZipOrUrl);
        if (file && file.bytes.byteLength > limits.maxArchiveBytes) throw new HttpError(413, tooLarge);
        const archive = file
          ? file.bytes
          : await fetchSource(sourceUrl, { maxBytes: limits.maxArchiveBytes, timeoutMs: limits.urlTimeoutMs, maxRedirects: limits.maxRedirects, allow: urlAllow });
        const source = file ? `import ${file.filename}` : `import ${sourceUrl}`;
        return importer.runHeld({ archive, targetMonth, mode, dryRun, source });
      },
      async () => void discard(ctx, limits.maxArchiveBytes + MB),
    );
  });
}
