import type { AppDeps } from '../app/deps.js';
import type { CreditLedger } from '../credits/ledger.js';
import { MaintenanceLeases } from '../datasets/lease.js';
import type { DatasetStore } from '../datasets/store.js';
import { LocalStorage } from '../storage/local.js';
import { ArchiveEntries } from '../strategies/archive-entries.js';
import type { CandleUploads } from '../uploads/candle-uploads.js';
import type { Profiles } from '../users/profile.js';
import { AdminBacktests } from './backtests.js';
import { DiskExplorer, type DiskRoot } from './disk.js';
import { OutputImporter } from './import/import-output.js';
import { InvoiceFiles } from './invoice-files.js';
import { AdminUsers } from './users.js';

/** The folders the disk explorer shows: the file storage, the CSV library, and the project's own. */
function diskRoots(deps: AppDeps): DiskRoot[] {
  return [
    { key: 'files', label: 'Fichiers (résultats, extractions, stratégies, archives, factures)', scope: 'disk', storage: deps.storage },
    { key: 'library', label: 'Bibliothèque CSV officielle', scope: 'disk', storage: deps.library },
    ...deps.config.projectRoots.map((r) => ({ key: r.key, label: r.label, scope: 'project' as const, storage: new LocalStorage(r.path) })),
  ];
}

/** The admin console's services (docs/admin.md), built once with the app's. */
export function createAdminServices(deps: AppDeps, shared: { ledger: CreditLedger; profiles: Profiles; datasets: DatasetStore; uploads: CandleUploads }) {
  return {
    users: new AdminUsers({ db: deps.db, clock: deps.clock, ledger: shared.ledger, profiles: shared.profiles }),
    backtests: new AdminBacktests(deps.db, deps.storage),
    archive: new ArchiveEntries(deps.db, deps.storage, deps.clock),
    disk: new DiskExplorer(diskRoots(deps)),
    invoices: new InvoiceFiles(deps.storage),
    importer: new OutputImporter({ datasets: shared.datasets, uploads: shared.uploads, limits: deps.config.imports, log: deps.log, leases: new MaintenanceLeases(deps.db, deps.clock, deps.log) }),
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
