import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status?: number;
  /** The assistant message content (wrapped in the chat completion JSON). */
  content?: string;
  /** A raw body instead (for malformed answers). */
  raw?: string;
  delayMs?: number;
}

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

/**
 * A local OpenAI-compatible chat endpoint for the tests: answers POST /v1/chat/completions from a
 * script (one answer per call, in order) and records what it received.
 */
export async function startLlmServer() {
  const script: ScriptedAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const server: Server = createServer(async (req, res) => {
    const text = await read(req);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end('{"error":"not found"}');
      return;
    }
    requests.push({ path: req.url, authorization: req.headers.authorization, body: JSON.parse(text) });
    const answer = script.shift() ?? { status: 500, raw: '{"error":"no scripted answer"}' };
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    const body = answer.raw ?? JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer.content ?? '' }, finish_reason: 'stop' }] });
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    script,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
