import type { QueryInterface } from 'sequelize';
import * as m0001 from './0001-accounts.js';
import * as m0002 from './0002-working-area.js';
import * as m0003 from './0003-sessions.js';
import * as m0004 from './0004-payments.js';
import * as m0005 from './0005-admin.js';
import * as m0006 from './0006-backtest-procedures.js';
import * as m0007 from './0007-collations.js';
import * as m0008 from './0008-listing-indexes.js';
import * as m0009 from './0009-payment-reversals.js';
import * as m0010 from './0010-storage-removals.js';
import * as m0011 from './0011-strategy-archive-user.js';
import * as m0012 from './0012-maintenance-leases.js';
import * as m0013 from './0013-users-deleted.js';
import * as m0014 from './0014-users-erased.js';
import * as m0015 from './0015-users-email-canonical.js';
import * as m0016 from './0016-credit-notes.js';
import * as m0017 from './0017-users-inactivity.js';
import * as m0018 from './0018-retention-indexes.js';
import * as m0019 from './0019-payment-attention.js';
import * as m0020 from './0020-oidc-codes.js';
import * as m0021 from './0021-backtest-charge-plain-read.js';
import * as m0022 from './0022-subscription-and-state-indexes.js';

export interface Migration {
  name: string;
  up(params: { context: QueryInterface }): Promise<void>;
  down(params: { context: QueryInterface }): Promise<void>;
}

/**
 * The ordered list of migrations. Listed explicitly rather than globbed so the same code runs
 * from src/ (tsx, Deno) and from dist/ (node) without a file-name convention per runtime.
 */
export const migrations: Migration[] = [
  { name: '0001-accounts', ...m0001 },
  { name: '0002-working-area', ...m0002 },
  { name: '0003-sessions', ...m0003 },
  { name: '0004-payments', ...m0004 },
  { name: '0005-admin', ...m0005 },
  { name: '0006-backtest-procedures', ...m0006 },
  { name: '0007-collations', ...m0007 },
  { name: '0008-listing-indexes', ...m0008 },
  { name: '0009-payment-reversals', ...m0009 },
  { name: '0010-storage-removals', ...m0010 },
  { name: '0011-strategy-archive-user', ...m0011 },
  { name: '0012-maintenance-leases', ...m0012 },
  { name: '0013-users-deleted', ...m0013 },
  { name: '0014-users-erased', ...m0014 },
  { name: '0015-users-email-canonical', ...m0015 },
  { name: '0016-credit-notes', ...m0016 },
  { name: '0017-users-inactivity', ...m0017 },
  { name: '0018-retention-indexes', ...m0018 },
  { name: '0019-payment-attention', ...m0019 },
  { name: '0020-oidc-codes', ...m0020 },
  { name: '0021-backtest-charge-plain-read', ...m0021 },
  { name: '0022-subscription-and-state-indexes', ...m0022 },
];
