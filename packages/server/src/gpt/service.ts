import { HttpError, badRequest } from '../app/errors.js';
import { characterCount } from '../app/input.js';
import type { User, UserStrategy } from '../db/models.js';
import type { ArchiveMeta, StrategyArchive } from '../strategies/archive.js';
import { parseSlMode, type UserStrategies, type Validated } from '../strategies/service.js';
import { emitPython } from './builtin/emit.js';
import { parsePrompt } from './builtin/parse.js';
import { codeOf, LlmError, type ChatMessage, type LlmClient } from './llm.js';
import { retryPrompt, SYSTEM_PROMPT, userPrompt } from './prompt.js';

export const GPT_MESSAGES = {
  promptRequired: 'Décris la logique de ta stratégie.',
  promptTooLong: (max: number) => `Description trop longue (${max} caractères maximum).`,
  cannotGenerate: 'Stratégie impossible à générer. Reformule plus clairement la logique.',
  notReady: "La stratégie n'est pas encore disponible. Réessaie dans 2s ou régénère.",
  llmFailed: 'Erreur génération GPT',
  generated: 'Stratégie générée.',
} as const;

export const MAX_PROMPT = 4000;
/** One try, and one more when the first file fails validation (the refusal is sent back to the model). */
const ATTEMPTS = 2;

export interface Generated {
  strategy: UserStrategy;
  comment: string;
  provider: 'openai' | 'builtin';
  attempts: number;
}

/**
 * POST /api/gpt/generate-strategy (docs/product.md §2.4, §2.8): a chat model writes the .py when one is
 * configured, otherwise the built-in generator composes it from the catalogue's building blocks;
 * either way the file goes through the same validation as an import, is saved for the user and
 * archived with its attempts and timing.
 */
export class StrategyGenerator {
  private readonly running = new Set<number>();

  constructor(private readonly deps: { strategies: UserStrategies; archive: StrategyArchive; llm: LlmClient | null; log: (message: string) => void }) {}

  get provider(): 'openai' | 'builtin' {
    return this.deps.llm ? 'openai' : 'builtin';
  }

  async generate(user: User, promptValue: string, slModeValue: string): Promise<Generated> {
    const prompt = promptValue.trim();
    if (!prompt) throw badRequest(GPT_MESSAGES.promptRequired);
    if (characterCount(prompt) > MAX_PROMPT) throw badRequest(GPT_MESSAGES.promptTooLong(MAX_PROMPT));
    const slMode = parseSlMode(slModeValue);
    // Nothing is asked of the chat model for a file that could not be validated.
    const unavailable = this.deps.strategies.unavailableError();
    if (unavailable) throw unavailable;
    // One generation at a time per user: a second click while the first runs gets the spec's
    // "not yet available" sentence instead of a second strategy.
    if (this.running.has(user.id)) throw new HttpError(409, GPT_MESSAGES.notReady);
    this.running.add(user.id);
    try {
      // Free, so bounded per account (docs/strategies-python.md, "Limits per account"): refused
      // before the chat model is asked anything.
      await this.deps.strategies.checkQuota(user.id);
      return this.deps.llm ? await this.withModel(user, prompt, slMode, this.deps.llm) : await this.builtin(user, prompt, slMode);
    } finally {
      this.running.delete(user.id);
    }
  }

  private async builtin(user: User, prompt: string, slMode: 'internal' | 'external'): Promise<Generated> {
    const started = performance.now();
    const base: ArchiveMeta = { provider: 'builtin', model: null, attempts: 0, generation_seconds: 0, openai_failures: 0, dry_run_failures: 0, user_input: prompt, sl_mode: slMode };
    const spec = parsePrompt(prompt);
    if (!spec) {
      await this.failed(user, slMode, null, { ...base, generation_seconds: elapsed(started), error: 'no pattern recognised' });
      throw badRequest(GPT_MESSAGES.cannotGenerate);
    }
    const emitted = emitPython(spec);
    let validated: Validated;
    try {
      validated = await this.deps.strategies.validate(emitted.source, user.id);
    } catch (err) {
      const http = this.deps.strategies.validationError(err);
      if (!http) throw err;
      if (http.status !== 400) throw http;
      // The templates are ours: a refusal here is a bug worth a log line, not the user's fault.
      this.deps.log(`builtin generator: emitted file refused: ${http.message}`);
      await this.failed(user, slMode, emitted.source, { ...base, attempts: 1, dry_run_failures: 1, generation_seconds: elapsed(started), error: http.message });
      throw badRequest(GPT_MESSAGES.cannotGenerate);
    }
    const strategy = await this.deps.strategies.save(user, {
      source: emitted.source, shape: validated.shape, origin: 'gpt', filename: `${emitted.detectId}.py`, slMode,
      comment: emitted.description, userInput: prompt,
      archive: { ...base, attempts: 1, generation_seconds: elapsed(started) },
    }, validated.dryRun);
    return { strategy, comment: emitted.description, provider: 'builtin', attempts: 1 };
  }

  private async withModel(user: User, prompt: string, slMode: 'internal' | 'external', llm: LlmClient): Promise<Generated> {
    const started = performance.now();
    const meta: ArchiveMeta = { provider: 'openai', model: llm.model, attempts: 0, generation_seconds: 0, openai_failures: 0, dry_run_failures: 0, user_input: prompt, sl_mode: slMode };
    const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: userPrompt(prompt, slMode) }];
    let lastSource: string | null = null;
    let lastError = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      let answer: string;
      try {
        answer = await llm.complete(messages);
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        meta.openai_failures++;
        this.deps.log(`generation: chat endpoint failed: ${err.message}`);
        await this.failed(user, slMode, lastSource, { ...meta, generation_seconds: elapsed(started), error: err.message });
        throw new HttpError(502, GPT_MESSAGES.llmFailed);
      }
      meta.attempts = attempt;
      const source = codeOf(answer);
      if (!source) {
        meta.dry_run_failures++;
        lastError = 'aucune fonction detect_<id> dans la réponse';
      } else {
        lastSource = source;
        try {
          const validated = await this.deps.strategies.validate(source, user.id);
          const comment = validated.shape.description || `Stratégie générée à partir de : ${prompt.slice(0, 300)}`;
          const strategy = await this.deps.strategies.save(user, {
            source, shape: validated.shape, origin: 'gpt', filename: `${validated.shape.detectName}.py`, slMode, comment, userInput: prompt,
            archive: { ...meta, generation_seconds: elapsed(started) },
          }, validated.dryRun);
          return { strategy, comment, provider: 'openai', attempts: attempt };
        } catch (err) {
          const http = this.deps.strategies.validationError(err);
          if (!http) throw err;
          if (http.status !== 400) throw http;
          meta.dry_run_failures++;
          lastError = http.message;
        }
      }
      messages.push({ role: 'assistant', content: answer }, { role: 'user', content: retryPrompt(lastError) });
    }
    await this.failed(user, slMode, lastSource, { ...meta, generation_seconds: elapsed(started), error: lastError });
    throw new HttpError(400, GPT_MESSAGES.cannotGenerate, {}, { reason: lastError });
  }

  private async failed(user: User, slMode: string, source: string | null, meta: ArchiveMeta): Promise<void> {
    await this.deps.strategies.recordFailure({ type: 'gpt', strategyId: null, userId: user.id, displayName: meta.user_input?.slice(0, 120) ?? null, slMode, status: 'failed', filename: 'generation.py', source, meta });
  }
}

const elapsed = (started: number) => Math.round(performance.now() - started) / 1000;
