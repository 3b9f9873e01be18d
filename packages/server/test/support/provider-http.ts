/**
 * What the local payment provider servers (stripe-server.ts, paypal-server.ts,
 * nowpayments-server.ts) share: a listener on 127.0.0.1:0, body reading, answers, the tiny
 * "hosted page" each serves to the browser, and the delivery of their signed callbacks.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL, body: string) => Promise<void> | void;

export async function listen(handler: Handler): Promise<{ server: Server; base: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://local');
    try {
      await handler(req, res, url, Buffer.concat(chunks).toString('utf8'));
    } catch (err) {
      if (!res.headersSent) json(res, 500, { error: { message: (err as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location }).end();
}

export const randomId = (prefix: string, bytes = 12) => `${prefix}${randomBytes(bytes).toString('hex')}`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's checkout page, reduced to what a buyer does there: pay, or go back. */
export function hostedPage(res: ServerResponse, input: { provider: string; summary: string; payAction: string; cancelAction: string }): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>${escape(input.provider)} (serveur local)</title></head>
<body><h1>${escape(input.provider)}</h1><p data-testid="provider-summary">${escape(input.summary)}</p>
<form method="post" action="${escape(input.payAction)}"><button type="submit" id="provider-pay">Payer</button></form>
<form method="post" action="${escape(input.cancelAction)}"><button type="submit" id="provider-cancel">Annuler</button></form>
</body></html>`);
}

/** `return_url` + its query parameters (PayPal and Stripe add theirs to the merchant's URL). */
export function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.toString();
}

export interface Delivery {
  status: number;
  body: any;
}

/** POSTs a callback body as the provider sends it (raw bytes, its signature header). */
export async function deliver(target: string, payload: string, headers: Record<string, string>): Promise<Delivery> {
  const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text
  }
  return { status: res.status, body };
}
