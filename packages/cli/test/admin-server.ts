// A real bt server for the `bt admin` tests: the server package's own test helper (its
// TypeScript sources under tsx, as its own process, SQLite in a fresh data directory), with the
// library seeded from the fixtures. The CLI only ever talks to it over HTTP.
import { startServerProcess, type ServerProcess } from '../../server/test/support/server-process.js';

export { importArchive } from '../../server/test/support/import-archives.js';

export interface AdminServer extends ServerProcess {
  adminKey: string;
}

/** The password startServerProcess gives the admin account it creates. */
const ADMIN_PASSWORD = 'admin-password-123';

export async function startAdminServer(env: Record<string, string> = {}): Promise<AdminServer> {
  // The library the repository's fixtures seed, kept from an earlier server when there is one.
  const server = await startServerProcess({ RATE_LIMIT_LOGIN: 'off', RATE_LIMIT_REGISTER: 'off', ...env }, { seededLibrary: true });
  const login = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'admin@bt.local', password: ADMIN_PASSWORD }) });
  const adminKey = ((await login.json()) as { token: string }).token;
  return Object.assign(server, { adminKey });
}

/** Registers a user through the API; returns its id and key. */
export async function registerUser(server: AdminServer, name: string): Promise<{ id: number; key: string; email: string }> {
  const email = `${name}@example.com`;
  const res = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Camille', last_name: 'Durand', email, username: name, password: 'motdepasse-cli' }),
  });
  const { token } = (await res.json()) as { token: string };
  const me = (await (await fetch(`${server.url}/api/me`, { headers: { 'x-api-key': token } })).json()) as { id: number };
  return { id: me.id, key: token, email };
}
