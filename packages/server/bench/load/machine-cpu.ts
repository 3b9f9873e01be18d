// CPU time of the other programs sharing the machine with the server during a load test: the local
// database server (MariaDB/MySQL on 127.0.0.1) and the load client (this process: autocannon).
// Linux /proc only; elsewhere the figures are null and the report shows a dash.
import { readdirSync, readFileSync } from 'node:fs';
import process from 'node:process';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** utime + stime of a process in ms, or null when it cannot be read. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The pid of a MariaDB/MySQL server on this machine, or null (a remote database, or no /proc). */
export function localDatabasePid(): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const name = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (name === 'mariadbd' || name === 'mysqld') return Number(entry);
    } catch {
      // The process ended while listing.
    }
  }
  return null;
}

/** CPU of the database server and of this process over a window: `start()`, then `stop()`. */
export function cpuWindow(databasePid: number | null) {
  const db0 = databasePid === null ? null : processCpuMs(databasePid);
  const client0 = process.cpuUsage();
  return {
    stop(): { databaseCpuMs: number | null; clientCpuMs: number } {
      const db1 = databasePid === null ? null : processCpuMs(databasePid);
      const client = process.cpuUsage(client0);
      return { databaseCpuMs: db0 === null || db1 === null ? null : db1 - db0, clientCpuMs: (client.user + client.system) / 1000 };
    },
  };
}
