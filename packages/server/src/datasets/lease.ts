import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Op, UniqueConstraintError } from 'sequelize';
import { processEnded } from '@bt/core/node';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';

/** The lease every library maintenance takes: an import, a reindex, the recovery at start. */
export const LIBRARY_LEASE = 'library';

/** How long a lease holds without renewal: a process that dies frees the library after this. */
export const LEASE_TTL_MS = 60_000;
/** Renewed this often while the work runs (a third of the TTL: two renewals may fail in a row). */
const RENEW_EVERY_MS = 20_000;

/**
 * This process, as a holder names it: host, pid and start time (a restarted process frees its
 * previous life's leases, and a process restarted with the same pid, pid 1 in a container, is
 * told from it by its start).
 */
const HOST = hostname().slice(0, 30);
const SELF = `${HOST}/${process.pid}/${Math.round(performance.timeOrigin).toString(36)}`;
const holderId = () => `${SELF}/${randomUUID().slice(0, 8)}`;

/** A lease taken: renewed until `release`. */
export interface HeldLease {
  readonly holder: string;
  release(): Promise<void>;
}

/**
 * Named leases in the database (table maintenance_leases), so that library maintenance runs one at
 * a time across every server process on the database, not only within one (docs/deployment.md,
 * "Several servers"): two servers importing the same month at once each wrote its files and its
 * index row, in either order. A lease is taken by one guarded UPDATE (the row is free, or its
 * holder let it expire), which both SQLite and MariaDB apply atomically; the holder renews it
 * while it works and frees it after. A process killed mid-work leaves a lease that expires after
 * LEASE_TTL_MS, and the next import finishes its interrupted writes (DatasetStore.recover).
 */
export class MaintenanceLeases {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** The lease, or null when another holder has it (in this process or another). */
  async tryAcquire(name: string): Promise<HeldLease | null> {
    const { MaintenanceLease } = this.db.models;
    const holder = holderId();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + LEASE_TTL_MS);
    const [taken] = await MaintenanceLease.update({ holder, expiresAt }, { where: { name, [Op.or]: [{ holder: null }, { expiresAt: { [Op.lt]: now } }] } });
    if (taken === 0) {
      if (await MaintenanceLease.findByPk(name, { attributes: ['name'] })) return null;
      try {
        await MaintenanceLease.create({ name, holder, expiresAt });
      } catch (err) {
        // Another process created the row first: it holds the lease.
        if (err instanceof UniqueConstraintError) return null;
        throw err;
      }
    }
    return this.held(name, holder);
  }

  /**
   * At start: frees the lease when its holder was a process of this host that no longer runs (or
   * had this pid but started at another time: this process's previous life, in a container that
   * restarts with pid 1). A server killed mid-import and restarted at once would otherwise answer
   * 409 (a maintenance already running) for a minute. A holder on another host is left to its expiry:
   * it may be running.
   */
  async freeOrphan(name: string): Promise<boolean> {
    const { MaintenanceLease } = this.db.models;
    const row = await MaintenanceLease.findByPk(name);
    const [host, pid, started] = row?.holder?.split('/') ?? [];
    if (!row?.holder || host !== HOST || !/^\d+$/.test(pid ?? '')) return false;
    const previousLife = Number(pid) === process.pid && `${host}/${pid}/${started}` !== SELF;
    if (!previousLife && !processEnded(Number(pid))) return false;
    const [freed] = await MaintenanceLease.update({ holder: null, expiresAt: this.clock.now() }, { where: { name, holder: row.holder } });
    if (freed > 0) this.log(`lease ${name}: freed, its holder (pid ${pid} on this host) no longer runs`);
    return freed > 0;
  }

  private held(name: string, holder: string): HeldLease {
    const { MaintenanceLease } = this.db.models;
    let lost = false;
    const renew = setInterval(() => {
      MaintenanceLease.update({ expiresAt: new Date(this.clock.now().getTime() + LEASE_TTL_MS) }, { where: { name, holder } })
        .then(([renewed]) => {
          // Only when the database was away longer than the TTL: another process may now run
          // beside this one, which the log must say.
          if (renewed === 0 && !lost) this.log(`lease ${name}: lost while held (not renewed within ${LEASE_TTL_MS / 1000} s)`);
          lost ||= renewed === 0;
        })
        .catch((err) => this.log(`lease ${name}: renewal failed: ${(err as Error).message}`));
    }, RENEW_EVERY_MS);
    renew.unref?.();
    return {
      holder,
      release: async () => {
        clearInterval(renew);
        try {
          await MaintenanceLease.update({ holder: null, expiresAt: this.clock.now() }, { where: { name, holder } });
        } catch (err) {
          // The work is done: a lease not freed only makes the next one wait for its expiry.
          this.log(`lease ${name}: release failed (expires by itself): ${(err as Error).message}`);
        }
      },
    };
  }
}
