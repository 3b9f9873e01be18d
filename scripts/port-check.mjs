// `npm start` checks that the server's port is free before it installs and builds: a second
// `npm start` while the first runs stopped only after rebuilding the packages (rewriting the dist/
// files the running server loads its worker threads from) and migrating its database.
import { createServer } from 'node:net';

/** Resolves null when HOST:PORT can be listened on, else the line the server itself would print. */
export function portProblem(host, port) {
  if (!/^\d{1,5}$/.test(port) || Number(port) === 0 || Number(port) > 65535) return Promise.resolve(null); // the server names a bad PORT
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err) =>
      resolve(
        err.code === 'EADDRINUSE'
          ? `bt: invalid PORT: ${port} is already in use on ${host} (another bt server running? stop it or set PORT to a free port)`
          : null, // another failure (a HOST not of this machine…): the server says it in its own words
      ),
    );
    probe.listen({ port: Number(port), host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}
