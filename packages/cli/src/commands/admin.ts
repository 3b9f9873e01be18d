import { Argument, Option, type Command } from 'commander';
import { examples, lazy } from './shared.js';

/** The connection and output options every `bt admin` command takes. */
function connected(command: Command): Command {
  return command
    .option('--api <url>', "the bt server's address (default: BT_API_URL)")
    .option('--key <key>', "an admin's key (default: BT_API_KEY)")
    .option('--json', "print the server's answer as JSON");
}

/**
 * lazy() for an admin action: an answer this bt cannot read (a server of another version) is
 * reported as such, naming the call, instead of the JavaScript error it caused (actions/admin/shared.ts).
 */
function adminAction<A extends unknown[]>(load: () => Promise<(...args: A) => Promise<void> | void>) {
  return lazy(async () => {
    const [run, { unreadableAnswer }] = await Promise.all([load(), import('../actions/admin/shared.js')]);
    return async (...args: A) => {
      try {
        await run(...args);
      } catch (error) {
        throw unreadableAnswer(error);
      }
    };
  });
}

const rangeOptions = (command: Command) =>
  command
    .addOption(new Option('--range <range>', 'day, week, month (default), all, or custom').choices(['day', 'week', 'month', 'all', 'custom']))
    .option('--start <day>', 'first day of a custom range, UTC (YYYY-MM-DD)')
    .option('--end <day>', 'last day of a custom range, UTC, included');


export function registerAdminCommand(program: Command): void {
  const admin = program
    .command('admin')
    .description("run a bt server's admin tasks over its HTTP API: users, credits, statistics, reindex, imports, archive, invoices, payments to settle")
    .addHelpText('after', '\nEvery subcommand takes --api URL and --key KEY (or BT_API_URL and BT_API_KEY) and --json.\nSee docs/cli.md ("bt admin") and docs/admin.md.\n');
  examples(admin, [
    'export BT_API_URL=http://127.0.0.1:8080 BT_API_KEY=...',
    'bt admin users',
    'bt admin credit add 12 --amount 5',
    'bt admin metrics overview --range week',
    'bt admin import-output output-2026-01.zip --month 2026-01 --dry-run',
  ]);

  const users = connected(admin.command('users').description('list the accounts (id, email, username, plan, credits, blocked)'))
    .option('--search <text>', 'only e-mails or usernames containing this')
    .addOption(new Option('--sort <order>', 'newest (default), email, username (A to Z) or credits (most first); sorted by the server before --limit and --offset').choices(['newest', 'email', 'username', 'credits']))
    .option('--limit <n>', 'rows (1-5000)', '500')
    .option('--offset <n>', 'first row (0-based)', '0');
  users.action(adminAction(async () => (await import('../actions/admin/users.js')).usersCommand));

  const credit = connected(admin.command('credit').description("add or remove credits of a user (through the ledger; a balance never goes below zero)"))
    .addArgument(new Argument('<action>', 'add or remove').choices(['add', 'remove']))
    .argument('<user-id>', 'the user (see bt admin users)')
    .option('--amount <n>', 'credits (1-1000)', '1');
  credit.action(adminAction(async () => (await import('../actions/admin/users.js')).creditCommand));

  const user = admin.command('user').description('act on one account');
  connected(user.command('delete').description('delete an account: archived, its sessions revoked, its ledger kept'))
    .argument('<user-id>', 'the user (see bt admin users)')
    .option('--yes', 'confirm (required)')
    .action(adminAction(async () => (await import('../actions/admin/users.js')).userDeleteCommand));

  const history = admin.command('history').description('the purchase history');
  connected(history.command('reset').description("hide every user's purchase history from the histories (ledger, credits and subscriptions untouched)"))
    .option('--yes', 'confirm (required)')
    .action(adminAction(async () => (await import('../actions/admin/users.js')).historyResetCommand));

  const metrics = admin.command('metrics').description('statistics from the event log');
  rangeOptions(connected(metrics.command('overview').description('the twelve KPIs of a range: sales gross, refunds, net, credits, backtests, users')))
    .action(adminAction(async () => (await import('../actions/admin/metrics.js')).overviewCommand));
  rangeOptions(connected(metrics.command('breakdown').description('one breakdown of a range (docs/admin.md "Breakdowns")')))
    .argument('<kind>', 'sales_by_method, credits_by_method, revenue_by_day, revenue_by_hour, backtests_by_strategy, backtests_by_symbol, backtests_by_timeframe, heatmap, backtest_duration, credits_flow, active_users_daily, dau_wau_mau, top_customers, failed_payments_by_kind')
    .option('--limit <n>', 'rows of top_customers (1-100, default 10)')
    .action(adminAction(async () => (await import('../actions/admin/metrics.js')).breakdownCommand));
  connected(metrics.command('reset').description('empty the event log'))
    .option('--yes', 'confirm (required)')
    .action(adminAction(async () => (await import('../actions/admin/metrics.js')).metricsResetCommand));
  connected(metrics.command('rebuild').description('refill the event log from the accounts, the credit ledger and the backtests'))
    .action(adminAction(async () => (await import('../actions/admin/metrics.js')).metricsRebuildCommand));

  connected(admin.command('reindex').description('rebuild the dataset index and the Arrow copies from the library files (exit 1 if a file does not read)'))
    .action(adminAction(async () => (await import('../actions/admin/maintenance.js')).reindexCommand));

  connected(admin.command('import-output').description("import a month of official data from a ZIP of CSVs (or a URL the server downloads); exit 1 if an entry is refused"))
    .argument('[file]', 'the ZIP to upload (or --url)')
    .option('--url <url>', 'an http(s) URL of the ZIP, downloaded by the server')
    .option('--month <YYYY-MM>', 'the month the files hold (default: this month, UTC)')
    .addOption(new Option('--mode <mode>', 'skip (default): keep months already there; overwrite: replace them').choices(['skip', 'overwrite']))
    .option('--dry-run', 'check everything, write nothing')
    .option('--yes', 'confirm --mode overwrite (required unless --dry-run: the months replaced are lost)')
    .option('--no-progress', 'no upload progress on stderr')
    .action(adminAction(async () => (await import('../actions/admin/maintenance.js')).importOutputCommand));

  const recreate = admin.command('email-recreate').description('the per-address account re-creation counters');
  connected(recreate.command('list', { isDefault: true }).description('list the counters (the default)'))
    .option('--limit <n>', 'rows (1-5000)', '1000')
    .option('--offset <n>', 'skip the first n (the next page)')
    .action(adminAction(async () => (await import('../actions/admin/maintenance.js')).emailRecreateCommand));
  connected(recreate.command('reset').description("reset one address's counter, or every counter (with --yes)"))
    .argument('[email]', 'the address (default: all)')
    .option('--yes', 'confirm resetting every counter')
    .action(adminAction(async () => (await import('../actions/admin/maintenance.js')).emailRecreateResetCommand));

  const archive = admin.command('archive').description('the archive of imported and generated strategies');
  connected(archive.command('list').description('recent archived entries, newest first'))
    .addOption(new Option('--type <type>', 'gpt or import (default: both)').choices(['gpt', 'import']))
    .option('--limit <n>', 'entries per type (1-100)', '10')
    .option('--offset <n>', 'entries per type to skip, newest first (the next page)', '0')
    .option('--deleted', 'include soft-deleted entries')
    .action(adminAction(async () => (await import('../actions/admin/archive.js')).archiveListCommand));
  connected(archive.command('restore-all').description('restore every soft-deleted entry of a type'))
    .addOption(new Option('--type <type>', 'gpt or import (required)').choices(['gpt', 'import']))
    .action(adminAction(async () => (await import('../actions/admin/archive.js')).archiveRestoreAllCommand));

  const payments = admin.command('payments').description('payment situations that need the operator: money to give back or a decision to take');
  connected(payments.command('attention').description('the open situations, newest first (--all: the closed ones too)'))
    .option('--all', 'closed situations too')
    .option('--limit <n>', 'how many (1-1000, default 200)')
    .option('--offset <n>', 'skip the first n (the next page)')
    .action(adminAction(async () => (await import('../actions/admin/payments.js')).attentionCommand));
  connected(payments.command('resolve').description('close one situation, once settled (refunded, extended, decided)'))
    .argument('<id>', 'the situation (see bt admin payments attention)')
    .option('--note <text>', 'what was done (500 characters at most)')
    .action(adminAction(async () => (await import('../actions/admin/payments.js')).resolveCommand));

  const invoices = admin.command('invoices').description('the billing files (invoice PDFs)');
  connected(invoices.command('list').description('the billing files, newest first, with their count and size'))
    .option('--limit <n>', 'how many (1-5000, default 500)')
    .option('--offset <n>', 'skip the first n (the next page)')
    .action(adminAction(async () => (await import('../actions/admin/invoices.js')).invoicesListCommand));
  connected(invoices.command('download').description('download one billing file'))
    .argument('<rel>', 'its path as listed (e.g. 2026/F-2026-000001.pdf)')
    .option('-o, --output <file>', 'where to write it (default: its name, in the current folder)')
    .option('--force', 'overwrite an existing file')
    .action(adminAction(async () => (await import('../actions/admin/invoices.js')).invoicesDownloadCommand));
}
