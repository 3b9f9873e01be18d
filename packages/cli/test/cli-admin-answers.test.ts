// `bt admin` against servers that answer badly: one that never stops sending, one that never
// answers, one whose answers have another shape (another version). Each is exit 1 with one
// sentence naming the call, in bounded memory and time (src/admin/client.ts, docs/cli.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bt, tempDir } from './helpers.js';

type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

const BEHAVIOURS: Record<string, Behaviour> = {
  // Spaces for ever: valid JSON whitespace, never an end.
  endless: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const piece = Buffer.alloc(1 << 20, 0x20);
    const pump = () => {
      while (res.write(piece));
    };
    res.on('drain', pump);
    res.on('error', () => undefined);
    pump();
  },
  // Reads the request (an upload included) and never answers.
  silent: (req) => {
    req.resume();
  },
  nothing: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('null');
  },
  reshaped: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"users": "a list in the next version", "datasets": 3}');
  },
  // A user whose name holds a terminal escape sequence (ESC ]0; retitles the window, ESC [2J clears the screen).
  escapes: (_req, res) => {
    const user = { id: 7, email: 'a@b.fr', username: 'x\u001b]0;pwned\u0007\u001b[2J', plan: 'free', credits: 1, is_blocked: false, role: 'user', last_seen: null };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ users: [user], total: 1 }));
  },
  // Refuses an upload past 1 MiB without reading the rest, as the server does past its import limit.
  early: (req, res) => {
    let n = 0;
    req.on('data', (d: Buffer) => {
      n += d.length;
      if (n > 1 << 20 && !res.headersSent) {
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"detail": "Archive trop volumineuse (100 Mo au plus)."}');
        req.destroy();
      }
    });
  },
  // Sends every call on to another origin, which keeps the keys it is given.
  redirect: (req, res) => {
    const thief = servers.get('thief')!.url.replace('127.0.0.1', 'localhost');
    res.writeHead(307, { location: `${thief}${req.url}` }).end();
  },
  // Names the billing file it sends with the name the query asks for (a hidden file, a parent folder...).
  naming: (req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').searchParams.get('rel') ?? '';
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${name}"` }).end('%PDF-1.4');
  },
  thief: (req, res) => {
    stolen.push(String(req.headers['x-api-key']));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"users": [], "total": 0}');
  },
};
const stolen: string[] = [];

const servers = new Map<string, { url: string; close: () => Promise<void> }>();
const work = tempDir('bt-cli-admin-answers-');

before(async () => {
  for (const [name, behave] of Object.entries(BEHAVIOURS)) {
    const server = createServer(behave);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.set(name, {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => {
        server.closeAllConnections();
        return new Promise((r) => server.close(() => r()));
      },
    });
  }
  writeFileSync(join(work.dir, 'month.zip'), Buffer.alloc(200_000, 1));
});
after(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
  work.remove();
});

const admin = (server: string, args: string[], env: Record<string, string> = {}) =>
  bt(['admin', ...args], { cwd: work.dir, env: { BT_API_URL: servers.get(server)!.url, BT_API_KEY: 'k', ...env } });

describe('bt admin against a server that answers badly', () => {
  it('stops reading an answer past 256 MiB', async () => {
    const url = servers.get('endless')!.url;
    for (const [args, path] of [[['users'], '/get_users'], [['reindex'], '/csv/reindex-output']] as const) {
      const run = await admin('endless', [...args]);
      assert.deepEqual([run.code, run.stderr], [1, `bt: the server at ${url} sent more than 256 MiB for ${path}: bt stopped reading\n`]);
    }
  });

  it('gives up a call after BT_API_TIMEOUT seconds, an upload included; a bad BT_API_TIMEOUT is a usage error', async () => {
    const url = servers.get('silent')!.url;
    const users = await admin('silent', ['users'], { BT_API_TIMEOUT: '2' });
    assert.deepEqual([users.code, users.stderr], [1, `bt: the server at ${url} did not answer /get_users within 2 s (BT_API_TIMEOUT)\n`]);
    const upload = await admin('silent', ['import-output', 'month.zip', '--month', '2026-01', '--no-progress'], { BT_API_TIMEOUT: '2' });
    assert.deepEqual([upload.code, upload.stderr], [1, `bt: the server at ${url} did not answer /maintenance/import-output within 2 s (BT_API_TIMEOUT)\n`]);
    const bad = await admin('silent', ['users'], { BT_API_TIMEOUT: 'soon' });
    assert.deepEqual([bad.code, bad.stderr], [2, 'bt: invalid BT_API_TIMEOUT: "soon" (expected whole seconds from 1 to 86400)\n']);
  });

  it('prints what the server says with its control characters escaped, and --json as it is', async () => {
    const table = await admin('escapes', ['users']);
    assert.equal(table.code, 0, table.stderr);
    assert.ok(!table.stdout.includes('\u001b'), table.stdout);
    assert.match(table.stdout, /x\\u001b\]0;pwned\\u0007\\u001b\[2J/);
    const json = await admin('escapes', ['users', '--json']);
    assert.equal((JSON.parse(json.stdout) as { users: { username: string }[] }).users[0].username, 'x\u001b]0;pwned\u0007\u001b[2J');
  });

  it('an upload the server stops reading says so: its refusal when it arrives, never "cannot reach the server: EPIPE"', async () => {
    writeFileSync(join(work.dir, 'big.zip'), Buffer.alloc(8 << 20, 1));
    const url = servers.get('early')!.url;
    for (let i = 0; i < 3; i++) {
      const run = await admin('early', ['import-output', 'big.zip', '--month', '2026-01', '--no-progress']);
      assert.equal(run.code, 1);
      const closed = new RegExp(`^bt: the server at ${url.replace(/\./g, '\\.')} closed the connection after \\d+ of \\d+ bytes of /maintenance/import-output: it stopped reading the upload \\(an archive over its import limit, 100 MB by default\\?\\)\\n$`);
      assert.ok(run.stderr === 'bt: HTTP 413: Archive trop volumineuse (100 Mo au plus).\n' || closed.test(run.stderr), run.stderr);
    }
  });

  it('over HTTPS, refuses a certificate it cannot verify and trusts one NODE_EXTRA_CA_CERTS names', async () => {
    // A self-signed certificate for 127.0.0.1 (test/fixtures/tls/README.md).
    const tls = join(import.meta.dirname, 'fixtures', 'tls');
    const seen: string[] = [];
    const server = createHttpsServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')) }, (req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['user-agent']} ${req.headers['accept-encoding'] ?? 'identity'}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"users": [], "total": 0}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const env = { BT_API_URL: url, BT_API_KEY: 'k' };
      assert.deepEqual(await bt(['admin', 'users'], { cwd: work.dir, env }), { code: 1, stdout: '', stderr: `bt: cannot reach the server at ${url}: DEPTH_ZERO_SELF_SIGNED_CERT\n` });
      assert.deepEqual(seen, [], 'no request went out');
      const trusted = await bt(['admin', 'users', '--json'], { cwd: work.dir, env: { ...env, NODE_EXTRA_CA_CERTS: join(tls, 'cert.pem') } });
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.deepEqual(JSON.parse(trusted.stdout).users, []);
      // The command names itself, and asks for no compressed answer (it reads the bytes as sent).
      assert.match(seen.join('\n'), /^GET \/api\/admin\/get_users\?limit=500&offset=0 bt\/\S+ identity$/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses an address with a password in it without printing the password', async () => {
    const run = await bt(['admin', 'users', '--api', 'http://admin:s3cret@127.0.0.1:8080', '--key', 'k']);
    assert.deepEqual(run, { code: 2, stdout: '', stderr: "bt: invalid --api: the address holds a user name or password (http://…@127.0.0.1:8080): give the server's address alone, and the admin key with --key or BT_API_KEY\n" });
  });

  it('refuses a key a header cannot carry, naming where it goes wrong but never printing it', async () => {
    for (const [key, at] of [['abc\ndef', 4], ['clé', 3], ['a b', 2], ['x\u0001', 2]] as const) {
      assert.deepEqual(await bt(['admin', 'users', '--api', 'http://127.0.0.1:9', '--key', key]), { code: 2, stdout: '', stderr: `bt: invalid --key: character ${at} is not a visible ASCII character (a key /api/login gives holds letters, digits, - and _ only)\n` }, JSON.stringify(key));
      const fromEnv = await bt(['admin', 'users'], { env: { BT_API_URL: 'http://127.0.0.1:9', BT_API_KEY: key } });
      assert.deepEqual([fromEnv.code, fromEnv.stderr], [2, `bt: invalid BT_API_KEY: character ${at} is not a visible ASCII character (a key /api/login gives holds letters, digits, - and _ only)\n`]);
    }
  });

  it('does not follow a redirect, which would hand the admin key to another address', async () => {
    const url = servers.get('redirect')!.url;
    const thief = servers.get('thief')!.url.replace('127.0.0.1', 'localhost');
    for (const json of [[], ['--json']]) {
      const run = await admin('redirect', ['users', ...json]);
      assert.deepEqual(run, {
        code: 1, stdout: '',
        stderr: `bt: the server at ${url} answered /get_users with a redirect (HTTP 307 to ${thief}/api/admin/get_users?limit=500&offset=0): bt does not send the admin key to another address; give the server's own address as --api\n`,
      });
    }
    assert.deepEqual(stolen, []);
  });

  it('writes a downloaded invoice under a plain name only, never a hidden file or a folder the server names', async () => {
    const folder = tempDir('bt-cli-invoices-');
    try {
      const download = (rel: string) => bt(['admin', 'invoices', 'download', rel], { cwd: folder.dir, env: { BT_API_URL: servers.get('naming')!.url, BT_API_KEY: 'k' } });
      for (const rel of ['.bashrc', '2026/.profile', '..', '2026/..']) {
        assert.deepEqual(await download(rel), { code: 1, stdout: '', stderr: `bt: the server gave no plain file name for ${rel}: give -o FILE\n` }, rel);
      }
      assert.deepEqual(readdirSync(folder.dir), []);
      const plain = await download('2026/F-2026-000042.pdf');
      assert.equal(plain.code, 0, plain.stderr);
      assert.deepEqual(readdirSync(folder.dir), ['F-2026-000042.pdf']);
    } finally {
      folder.remove();
    }
  });

  it('names the call whose answer it cannot read, instead of a JavaScript error', async () => {
    for (const server of ['nothing', 'reshaped']) {
      const url = servers.get(server)!.url;
      for (const [args, path] of [[['users'], '/get_users'], [['reindex'], '/csv/reindex-output']] as const) {
        const run = await admin(server, [...args]);
        assert.equal(run.code, 1, `${server} ${args.join(' ')}: ${run.stderr}`);
        assert.match(run.stderr, new RegExp(`^bt: the server at ${url.replace(/\./g, '\\.')} answered ${path} in a form bt \\S+ does not read \\(.+\\): is the server the same version\\?\\n$`), `${server} ${args.join(' ')}`);
      }
    }
  });

  it('checks every field it prints, so an answer of another shape never prints undefined', async () => {
    // The reshaped server answers {"users": "a list in the next version", "datasets": 3} to every
    // call: each command names the first field it reads that is not what it expects.
    const url = servers.get('reshaped')!.url;
    const calls: [string[], string, string][] = [
      [['users'], '/get_users', 'users is a string, expected a list'],
      [['metrics', 'overview'], '/metrics/overview', 'range is missing, expected a string'],
      [['metrics', 'breakdown', 'heatmap'], '/metrics/breakdown', 'range is missing, expected a string'],
      [['metrics', 'reset', '--yes'], '/metrics/reset', 'deleted is missing, expected a number'],
      [['metrics', 'rebuild'], '/metrics/rebuild_from_users', 'added is missing, expected a number'],
      [['credit', 'add', '12', '--amount', '5'], '/add_credit', 'credits is missing, expected a number'],
      [['history', 'reset', '--yes'], '/history/reset', 'hidden is missing, expected a number'],
      [['reindex'], '/csv/reindex-output', 'result is missing, expected an object'],
      [['import-output', 'month.zip', '--month', '2026-01', '--no-progress'], '/maintenance/import-output', 'target_month is missing, expected a string'],
      [['email-recreate'], '/email-recreate', 'counts is missing, expected a list'],
      [['email-recreate', 'reset', '--yes'], '/reset-email-recreate', 'removed is missing, expected a number'],
      [['archive', 'list', '--type', 'gpt'], '/strategies/recent', 'items is missing, expected a list'],
      [['archive', 'restore-all', '--type', 'gpt'], '/strategies/archive/restore-all', 'restored is missing, expected a number'],
      [['invoices', 'list'], '/factures_info', 'count is missing, expected a number'],
    ];
    for (const [args, path, why] of calls) {
      for (const json of [[], ['--json']]) {
        const run = await admin('reshaped', [...args, ...json]);
        assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
        assert.equal(run.stdout, '', args.join(' '));
        assert.match(run.stderr, new RegExp(`^bt: the server at ${url.replace(/\./g, '\\.')} answered \\S+ in a form bt \\S+ does not read \\((.+)\\)`), args.join(' '));
        const named = /answered (\S+) in a form bt \S+ does not read \((.+)\): is the server/.exec(run.stderr)!;
        // `invoices list` makes its two calls together: whichever is read first is named, with its own field.
        const expected = path === '/factures_info' && named[1] === '/factures_list' ? ['/factures_list', 'items is missing, expected a list'] : [path, why];
        assert.deepEqual([named[1], named[2]], expected, args.join(' '));
      }
    }
  });
});
