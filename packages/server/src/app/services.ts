import { Accounts } from '../auth/accounts.js';
import { Sessions } from '../auth/sessions.js';
import { OneTimeTokens } from '../auth/tokens.js';
import { CreditLedger } from '../credits/ledger.js';
import { IdentityLinking } from '../oidc/linking.js';
import { OidcFlow } from '../oidc/flow.js';
import { Support } from '../support/service.js';
import { Profiles } from '../users/profile.js';
import { Recreations } from '../users/recreations.js';
import type { AppDeps } from './deps.js';

/** The business rules, built once per app from its dependencies; route handlers call these. */
export function createServices(deps: AppDeps) {
  const { db, clock, mailer, config, log } = deps;
  const sessions = new Sessions(db);
  const tokens = new OneTimeTokens(db, clock);
  const ledger = new CreditLedger(db);
  const recreations = new Recreations(db);
  const accounts = new Accounts({
    db,
    clock,
    mailer,
    sessions,
    tokens,
    ledger,
    recreations,
    log,
    config, // by reference: the URLs can be set once the server listens
  });
  const profiles = new Profiles({ db, clock, accounts, sessions, recreations });
  const linking = new IdentityLinking(db, accounts, sessions);
  const oidc = new OidcFlow(db, clock, linking, config, log);
  const support = new Support(db, mailer, config.supportEmail, log);
  return { sessions, tokens, ledger, recreations, accounts, profiles, linking, oidc, support };
}

export type Services = ReturnType<typeof createServices>;
