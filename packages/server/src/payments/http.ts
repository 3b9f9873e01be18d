import { ProviderError } from './gateways.js';

const TIMEOUT_MS = 20_000;
/** Provider answers are small JSON documents; anything bigger is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface ProviderAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** A JSON call to a provider: network failures, timeouts and non-JSON answers become ProviderError. */
export async function callProvider(provider: string, url: string, init: RequestInit): Promise<ProviderAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch (err) {
    throw new ProviderError(provider, `${init.method ?? 'GET'} ${url} failed: ${(err as Error).message}`);
  }
  const text = await response.text();
  if (text.length > MAX_ANSWER_BYTES) throw new ProviderError(provider, `answer of ${text.length} bytes`, response.status);
  let body: unknown = {};
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ProviderError(provider, `non-JSON answer (HTTP ${response.status})`, response.status);
    }
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ProviderError(provider, `unexpected answer (HTTP ${response.status})`, response.status);
  return { status: response.status, body: body as Record<string, unknown> };
}

/** The providers' own error text, for the log. */
export function providerMessage(body: Record<string, unknown>): string {
  for (const name of ['message', 'error_description', 'error', 'name']) {
    if (typeof body[name] === 'string') return body[name] as string;
  }
  return JSON.stringify(body).slice(0, 300);
}
