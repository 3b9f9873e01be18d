import { createHash, randomBytes } from 'node:crypto';
import type { Candles } from '@bt/core/candles';
import type { StrategyParams } from '@bt/core/catalogue';
import { HttpError, badRequest, notFound } from '../app/errors.js';
import { characterCount } from '../app/input.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { StrategySource, User, UserStrategy } from '../db/models.js';
import { oweRemoval, removeLeftover, settleRemoval } from '../storage/removals.js';
import type { Storage } from '../storage/types.js';
import type { ArchiveEntry, ArchiveMeta, StrategyArchive } from './archive.js';
import { cleanName, safeName } from './archive.js';
import { LOOKAHEAD_CUTS, SAMPLE_META, normalizeUserParams, sampleCandles, shapeFromInfo, type StrategyShape } from './contract.js';
import { sandboxHttpError } from './messages.js';
import { DEFAULT_STRATEGY_QUOTA, StrategyQuota, type StrategyQuotaLimits } from './quota.js';
import { SandboxError, type SandboxResult, type StrategySandbox } from './sandbox/sandbox.js';
import { signalCount } from './sandbox/signal-columns.js';
import { parseStoredJson } from '../db/json.js';
import { ParamError } from '@bt/core/params';
import { frenchParamMessage } from '../app/param-messages.js';

export const STRATEGY_MESSAGES = {
  notFound: 'Stratégie introuvable.',
  noFile: 'Aucun fichier .py reçu.',
  notPython: 'Le fichier doit être un script Python (.py).',
  notUtf8: 'Le fichier doit être encodé en UTF-8.',
  tooLarge: (bytes: number) => `Fichier trop volumineux (${Math.round(bytes / 1024)} Ko maximum).`,
  nameInvalid: 'Nom invalide (1 à 120 caractères).',
  noteTooLong: 'Note trop longue (2000 caractères maximum).',
  slModeInvalid: 'sl_mode invalide (internal ou external).',
  imported: 'Stratégie importée.',
  renamed: 'Stratégie renommée.',
  noteSaved: 'Note enregistrée.',
  deleted: 'Stratégie supprimée.',
} as const;

export interface Validated {
  shape: StrategyShape;
  dryRun: SandboxResult;
}

export interface SaveInput {
  source: string;
  shape: StrategyShape;
  origin: StrategySource;
  filename: string;
  slMode: 'internal' | 'external';
  comment?: string | null;
  commentUser?: string | null;
  userInput?: string | null;
  archive: Omit<ArchiveMeta, 'dry_run' | 'sl_mode'>;
}

/**
 * Personal strategies (docs/product.md §2.3 "User strategy", §2.5 import rules): a `.py` file following the
 * `detect_<id>` contract, validated by the sandbox (static check, dry run, look-ahead check),
 * stored per user and archived; no credit is consumed.
 */
export class UserStrategies {
  readonly sample: Candles = sampleCandles();
  private readonly quota: StrategyQuota;

  constructor(
    private readonly deps: {
      db: Database; storage: Storage; sandbox: StrategySandbox; archive: StrategyArchive; clock: Clock; maxBytes: number;
      limits: { memoryBytes: number; cpuSeconds: number }; quota?: StrategyQuotaLimits; log?: (message: string) => void;
    },
  ) {
    this.quota = new StrategyQuota({ db: deps.db, storage: deps.storage, clock: deps.clock, limits: deps.quota ?? DEFAULT_STRATEGY_QUOTA, log: deps.log });
  }

  /**
   * 409 when the account keeps its maximum of strategies, 429 when it made its imports and
   * generations of the day (docs/strategies-python.md, "Limits per account"): checked before any
   * work, and again where the rows are written.
   */
  checkQuota(userId: number): Promise<void> {
    return this.quota.check(userId);
  }

  /**
   * Archives a failed import or generation for the admin, within the account's daily count: one
   * that raced past it is not archived (the caller still answers its own error). Then the
   * account's oldest failures beyond the kept number go.
   */
  async recordFailure(entry: ArchiveEntry & { userId: number }): Promise<void> {
    try {
      await this.deps.archive.record(entry, (t) => this.quota.guardAttempt(t, entry.userId));
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 429)) throw err;
    }
    await this.quota.pruneFailures(entry.userId);
  }

  /** 503 with the reason when strategies cannot run isolated (never run without it); null when they can. */
  unavailableError(): HttpError | null {
    const refusal = this.deps.sandbox.unavailable;
    return refusal ? sandboxHttpError(refusal, this.deps.limits) : null;
  }

  /**
   * Size, static check, dry run on the sample candles, look-ahead check, declared shape. The size
   * is checked here too for a generated file (an import's bytes were checked on arrival, 413): a
   * chat model's file obeys the import's limit, refused as a file the model must fix (400).
   */
  async validate(source: string, owner?: number): Promise<Validated> {
    if (Buffer.byteLength(source, 'utf8') > this.deps.maxBytes) throw badRequest(STRATEGY_MESSAGES.tooLarge(this.deps.maxBytes));
    const probe = await this.deps.sandbox.run({ source, mode: 'check', owner });
    const shape = shapeFromInfo(probe.info);
    const { params } = normalizeUserParams(shape, {});
    const dryRun = await this.deps.sandbox.run({ source, mode: 'dry_run', candles: this.sample, meta: { ...SAMPLE_META }, params, lookaheadCuts: LOOKAHEAD_CUTS, zoneRequired: shape.entryMode === 'pullback', owner });
    return { shape, dryRun };
  }

  /** The French error of a failed validation (a sandbox refusal, or a shape error already in French). */
  validationError(err: unknown, prefix = ''): HttpError | null {
    if (err instanceof SandboxError) return sandboxHttpError(err, this.deps.limits, prefix);
    if (err instanceof HttpError) return prefix ? new HttpError(err.status, `${prefix}${err.message}`) : err;
    // A PARAMS default an engine parameter refuses (core's normaliser): the file's fault like any
    // refusal, so it is archived, and a chat model gets it back to fix.
    if (err instanceof ParamError) return badRequest(`${prefix}${frenchParamMessage(err)}`);
    return null;
  }

  async import(user: User, input: { filename: string; bytes: Uint8Array | null; slMode: string; commentUser: string }): Promise<UserStrategy> {
    const { bytes, filename } = input;
    const unavailable = this.unavailableError();
    if (unavailable) throw unavailable;
    if (!bytes || !filename) throw badRequest(STRATEGY_MESSAGES.noFile);
    if (!/\.py$/i.test(filename)) throw badRequest(STRATEGY_MESSAGES.notPython);
    if (bytes.byteLength > this.deps.maxBytes) throw new HttpError(413, STRATEGY_MESSAGES.tooLarge(this.deps.maxBytes));
    const slMode = parseSlMode(input.slMode);
    if (characterCount(input.commentUser) > 2000) throw badRequest(STRATEGY_MESSAGES.noteTooLong);
    let source: string;
    try {
      source = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
    } catch {
      throw badRequest(STRATEGY_MESSAGES.notUtf8);
    }
    await this.checkQuota(user.id);
    const started = performance.now();
    let validated: Validated;
    try {
      validated = await this.validate(source, user.id);
    } catch (err) {
      const http = this.validationError(err);
      if (!http) throw err;
      if (http.status === 400) {
        await this.recordFailure({
          type: 'import', strategyId: null, userId: user.id, displayName: filename, slMode, status: 'failed', filename, source,
          meta: { provider: 'import', attempts: 1, generation_seconds: seconds(started), openai_failures: 0, dry_run_failures: 1, error: http.message, sl_mode: slMode },
        });
      }
      throw http;
    }
    return this.save(user, {
      source,
      shape: validated.shape,
      origin: 'import',
      filename,
      slMode,
      comment: validated.shape.description || null,
      commentUser: input.commentUser || null,
      archive: { provider: 'import', attempts: 1, generation_seconds: seconds(started), openai_failures: 0, dry_run_failures: 0 },
    }, validated.dryRun);
  }

  /** Stores a validated file for its owner and archives it. */
  async save(user: User, input: SaveInput, dryRun: SandboxResult): Promise<UserStrategy> {
    const id = `us_${randomBytes(8).toString('hex')}`;
    const path = `strategies/${user.id}/${id}.py`;
    const bytes = new TextEncoder().encode(input.source);
    await this.deps.storage.write(path, bytes);
    // The file's NAME, else the uploaded file's name: both come from the client, cleaned (cleanName).
    const displayName = cleanName(input.shape.name) || cleanName(input.filename.replace(/\.py$/i, '')) || input.shape.detectName;
    const filename = displayFilename(displayName, input.shape.detectName);
    // The file first, so a row never names a missing file. The strategy's row and its archive entry
    // are written in one transaction after the account's quota is checked again with its row
    // locked; a refusal takes the file with it, so it leaves no .py that nothing names.
    let row: UserStrategy | undefined;
    await this.deps.archive
      .record(
        {
          type: input.origin, strategyId: id, userId: user.id, displayName, slMode: input.slMode, status: 'ok', filename, source: input.source,
          meta: { ...input.archive, sl_mode: input.slMode, dry_run: { signals: signalCount(dryRun.signals), elapsed_ms: dryRun.elapsedMs } },
        },
        async (t) => {
          await this.quota.guard(t, user.id);
          row = await this.deps.db.models.UserStrategy.create(
            {
              id,
              userId: user.id,
              detectName: input.shape.detectName,
              strategyKey: input.shape.key,
              displayName,
              displayFilename: filename,
              source: input.origin,
              slMode: input.slMode,
              entryMode: input.shape.entryMode,
              filters: JSON.stringify(input.shape.filters),
              params: JSON.stringify(input.shape.params),
              ui: null,
              description: input.shape.description || null,
              comment: input.comment ?? null,
              commentUser: input.commentUser ?? null,
              userInput: input.userInput ?? null,
              path,
              checksum: createHash('sha256').update(bytes).digest('hex'),
              bytes: bytes.byteLength,
              createdAt: this.deps.clock.now(),
              updatedAt: this.deps.clock.now(),
            },
            { transaction: t },
          );
        },
      )
      .catch(async (err: unknown) => {
        await removeLeftover(this.removalDeps(), path, `strategy ${id} not saved`);
        throw err;
      });
    return row!;
  }

  list(userId: number): Promise<UserStrategy[]> {
    return this.deps.db.models.UserStrategy.findAll({ where: { userId }, order: [['createdAt', 'DESC'], ['id', 'ASC']] });
  }

  /** The user's strategy, or 404 (another user's id answers exactly like an unknown one). */
  async owned(userId: number, id: string): Promise<UserStrategy> {
    if (typeof id !== 'string' || !/^us_[0-9a-f]{16}$/.test(id)) throw notFound(STRATEGY_MESSAGES.notFound);
    const row = await this.deps.db.models.UserStrategy.findOne({ where: { id, userId } });
    if (!row) throw notFound(STRATEGY_MESSAGES.notFound);
    return row;
  }

  /**
   * The stored file. Gone while its row was still read (a deletion between the two, a run
   * started just before its strategy was deleted): the strategy is not found (404), as it would
   * be a moment later, rather than a 500 (the run's charge is refunded by the caller).
   */
  async source(row: UserStrategy): Promise<string> {
    try {
      return new TextDecoder().decode(await this.deps.storage.read(row.path));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(STRATEGY_MESSAGES.notFound);
      throw err;
    }
  }

  async rename(row: UserStrategy, name: string): Promise<UserStrategy> {
    // Typed by the user, so checked at its length as typed; what is stored is cleaned as any name.
    if (characterCount(name.trim()) > 120) throw badRequest(STRATEGY_MESSAGES.nameInvalid);
    const displayName = cleanName(name);
    if (!displayName) throw badRequest(STRATEGY_MESSAGES.nameInvalid);
    return this.deps.db.transaction((t) => row.update({ displayName, displayFilename: displayFilename(displayName, row.detectName), updatedAt: this.deps.clock.now() }, { transaction: t }));
  }

  async note(row: UserStrategy, note: string): Promise<UserStrategy> {
    if (characterCount(note) > 2000) throw badRequest(STRATEGY_MESSAGES.noteTooLong);
    return this.deps.db.transaction((t) => row.update({ commentUser: note || null, updatedAt: this.deps.clock.now() }, { transaction: t }));
  }

  /**
   * Deletes the strategy and its file (the archive keeps its own copy). The row goes with the
   * file's removal owed (storage/removals.ts): a storage that refuses it does not undo the user's
   * deletion; the path is logged and the sweep removes the file later.
   */
  async remove(row: UserStrategy): Promise<void> {
    const { db } = this.deps;
    const owed = await db.transaction(async (t) => {
      await row.destroy({ transaction: t });
      return oweRemoval(db, row.path, t);
    });
    await settleRemoval(this.removalDeps(), owed, row.path, `strategy ${row.id} deleted`);
  }

  private removalDeps() {
    return { db: this.deps.db, storage: this.deps.storage, log: this.deps.log ?? ((message: string) => console.error(message)) };
  }

  /** The shape stored with the row (read from the file when it was imported). */
  shapeOf(row: UserStrategy): StrategyShape {
    return {
      detectName: row.detectName,
      detectId: row.detectName.replace(/^detect_/, ''),
      key: row.strategyKey,
      entryMode: row.entryMode,
      filters: parseStoredJson(row.filters, []),
      params: parseStoredJson(row.params, {}),
      description: row.description ?? '',
      name: row.displayName,
    };
  }

  /** Signals of the stored file on real candles, through the sandbox (static check again, then the call). */
  async signals(row: UserStrategy, candles: Candles, params: StrategyParams, meta: Record<string, string | number>): Promise<SandboxResult> {
    return this.deps.sandbox.run({ source: await this.source(row), mode: 'run', candles, params, meta, zoneRequired: row.entryMode === 'pullback', owner: row.userId });
  }
}

export function parseSlMode(value: string): 'internal' | 'external' {
  const mode = value.trim().toLowerCase() || 'external';
  if (mode !== 'internal' && mode !== 'external') throw badRequest(STRATEGY_MESSAGES.slModeInvalid);
  return mode;
}

function displayFilename(displayName: string, detectName: string): string {
  const base = safeName(displayName.replace(/\s+/g, '_')).replace(/\.py$/i, '').replace(/\./g, '_');
  return `${base || detectName}.py`;
}


const seconds = (started: number) => Math.round(performance.now() - started) / 1000;
