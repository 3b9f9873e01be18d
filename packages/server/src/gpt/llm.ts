/**
 * An OpenAI-compatible chat endpoint (`POST {base}/chat/completions`: OpenAI, Azure OpenAI's
 * compatible route, Mistral, a local llama.cpp or vLLM server...), configured by LLM_BASE_URL,
 * LLM_API_KEY and LLM_MODEL. Injected into createApp (docs/architecture.md §3), so tests use a local server.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmClient {
  readonly model: string;
  complete(messages: ChatMessage[]): Promise<string>;
}

export class LlmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmError';
  }
}

export class OpenAiCompatibleClient implements LlmClient {
  readonly model: string;
  private readonly url: string;

  constructor(private readonly options: { baseUrl: string; apiKey: string; model: string; timeoutMs?: number; temperature?: number; maxAnswerBytes?: number }) {
    this.model = options.model;
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async complete(messages: ChatMessage[]): Promise<string> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.apiKey}` },
        body: JSON.stringify({ model: this.model, messages, temperature: this.options.temperature ?? 0.2 }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 90_000),
      });
    } catch (err) {
      throw new LlmError(`request failed: ${(err as Error).message}`);
    }
    const text = await boundedText(response, this.options.maxAnswerBytes ?? MAX_ANSWER_BYTES);
    if (!response.ok) throw new LlmError(`HTTP ${response.status}: ${text.slice(0, 300)}`);
    let body: { choices?: { message?: { content?: unknown } }[] };
    try {
      body = JSON.parse(text);
    } catch {
      throw new LlmError('answer is not JSON');
    }
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') throw new LlmError('answer without message content');
    return content;
  }
}

/**
 * What is read of an endpoint's answer: a strategy file is at most 256 KB (the import's limit), so
 * an answer many times that is refused without holding it whole in memory (a hostile or broken
 * endpoint could send gigabytes).
 */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

async function boundedText(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        throw new LlmError(`answer larger than ${max} bytes`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof LlmError) throw err;
    throw new LlmError(`reading the answer failed: ${(err as Error).message}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The Python code of an answer: the first ```python block, else any fenced block, else the text itself. */
export function codeOf(answer: string): string | null {
  const fenced = /```(?:python|py)?[ \t]*\r?\n([\s\S]*?)```/i.exec(answer);
  const code = fenced ? fenced[1] : answer;
  return /\bdef\s+detect_/.test(code) ? code.trim() + '\n' : null;
}
