import { parseDatabaseUrl } from '../db/database.js';
import { readJobsEnv } from '../jobs/env.js';
import { readS3Env } from '../storage/config.js';
import { readEnv } from './env.js';
import { checkDataDir, checkPortFree, checkSeedDir } from './startup-checks.js';

type Env = Record<string, string | undefined>;

/**
 * Everything the start checks before it opens or writes anything (docs/server.md,
 * "Environment"): the environment read, the command, DATA_DIR, SEED_DIR, PORT and HOST. main.ts
 * calls it with its own environment and turns a refusal into its one line; the tests call it
 * in-process with each value it must refuse.
 */
export async function preflight(command: string, source: Env) {
  const env = readEnv(source);
  const s3 = readS3Env(source);
  const jobs = readJobsEnv(source);
  if (command !== 'serve' && command !== 'migrate') throw new Error(`invalid command: ${command} (expected serve or migrate)`);
  // DATA_DIR holds the SQLite file and the local storages: checked when either is used.
  if (parseDatabaseUrl(env.databaseUrl, env.dataDir).dialect === 'sqlite' || !s3) checkDataDir(env.dataDir);
  if (command === 'serve') {
    checkSeedDir(source.SEED_DIR, env.seedDir);
    await checkPortFree(env.host, env.port);
  }
  return { env, s3, jobs };
}
