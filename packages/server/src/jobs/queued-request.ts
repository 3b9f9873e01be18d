import type { StrategySignal } from '@bt/core/strategies';
import { emptySignalColumns, signalColumnsFromText, signalColumnsOf, signalColumnsText, type SignalColumnsText } from '../strategies/sandbox/signal-columns.js';
import type { EngineRequest, SignalsSpec } from './task.js';

/**
 * An engine request as a queued job carries it (JSON in Redis): a personal strategy's signal
 * columns as base64 text (src/strategies/sandbox/signal-columns.ts). A job of an older API holds
 * them as an array of signals; a worker reads both.
 */
export type QueuedSignalsSpec = Omit<SignalsSpec, 'signals'> & { signals: SignalColumnsText | StrategySignal[] };
export type QueuedEngineRequest = Omit<EngineRequest, 'strategy'> & { strategy: string | QueuedSignalsSpec };

export function queuedRequest(request: EngineRequest): QueuedEngineRequest {
  if (typeof request.strategy === 'string') return request as QueuedEngineRequest;
  return { ...request, strategy: { ...request.strategy, signals: signalColumnsText(request.strategy.signals) } };
}

/** The request the engine runs; an error when its signals are not columns a queue could carry. */
export function engineRequestOf(request: QueuedEngineRequest): EngineRequest {
  const strategy = request.strategy;
  if (typeof strategy === 'string') return request as EngineRequest;
  if (!strategy || typeof strategy !== 'object') throw new Error('invalid strategy: neither a key nor signals');
  const signals = Array.isArray(strategy.signals) ? signalColumnsOf(strategy.signals) : signalColumnsFromText(strategy.signals);
  return { ...request, strategy: { ...strategy, signals } };
}

/** Whether the request carries signals (the bulky part a finished job sheds). */
export function carriesSignals(request: QueuedEngineRequest | undefined): boolean {
  const strategy = request?.strategy;
  if (!strategy || typeof strategy !== 'object') return false;
  if (Array.isArray(strategy.signals)) return strategy.signals.length > 0;
  return typeof strategy.signals?.index === 'string' && strategy.signals.index.length > 0;
}

/** The request without its signals (none left: empty columns). */
export function withoutSignals(request: QueuedEngineRequest): QueuedEngineRequest {
  if (typeof request.strategy === 'string') return request;
  return { ...request, strategy: { ...request.strategy, signals: signalColumnsText(emptySignalColumns()) } };
}
